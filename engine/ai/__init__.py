"""AIs: the interface, the built-in ones and external programs speaking the contest's file protocol."""
