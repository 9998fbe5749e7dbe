"""What the statutes say about each other, read back from the graph: legal definitions
(``define``) and the references that point nowhere (``broken``)."""
