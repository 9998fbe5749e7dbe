"""What the statutes say about each other, read back from the graph: legal definitions
(``define``), the references that point nowhere (``broken``) and the facts of one unit (``related``)."""
