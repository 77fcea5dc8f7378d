"""The hub's bot player and the coach (issue 24): the search in its own process, a seat at the table."""
