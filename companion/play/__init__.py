"""What every game shares: the State contract, the registry, Session."""
