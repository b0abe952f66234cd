"""Tron in the 3D viewer: light walls rising behind each cycle, cycles turning, crashes.

``timeline`` turns a game file into what is seen at any moment (no GL); ``render`` draws it with
moderngl; ``export`` writes PNG/GIF/MP4 headless; ``window`` plays it interactively.
"""
