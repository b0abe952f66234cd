"""Games the editor draws besides the robot boards: ``tron`` edits Tron arenas."""
