"""``tribune serve``: a local web app to watch game records and to play against agents (docs/web.md)."""
