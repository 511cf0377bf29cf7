"""Layer 1 — bytes to a lossless Fountain AST.

``source`` decodes bytes (UTF-8 with ``surrogateescape``), ``lexer`` classifies lines into
tokens for the Lark grammar in ``grammar/fountain.lark``, ``fountain`` builds the AST (every byte
in exactly one node), ``notes`` parses note bodies with ``grammar/notes.lark``, and ``cache``
keeps the built Lark tables in the user cache directory.
"""
