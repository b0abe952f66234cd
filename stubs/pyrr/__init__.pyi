from pyrr import matrix44 as matrix44
