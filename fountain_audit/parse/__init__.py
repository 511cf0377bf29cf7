"""Layer 1 — bytes to a lossless Fountain AST.

``source`` decodes bytes (UTF-8 with ``surrogateescape``), ``lexer`` classifies lines into
tokens for the Lark grammar in ``grammar/fountain.lark``, ``fountain`` builds the AST (every byte
in exactly one node), ``notes`` parses note bodies with ``grammar/notes.lark``, ``lark_parsers`` holds the two Lark
parsers (imported only when ``memo``, the grammar's answers kept on disk, does not know a shape),
and ``cache`` keeps the built Lark tables in the user cache directory.
"""
