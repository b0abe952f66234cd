"""Path prompts and the file browser's listing, shared by the board editor and the viewer's start
screen: plain Python (no GL, no widgets), each front end draws them with its own widgets."""
