"""Audit views of a session: ``show`` (reopen an element by id) and ``provenance`` (the evidence
recorded for each reply). They read the session model and the dump records; they never parse."""
