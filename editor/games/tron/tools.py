"""The Tron game's own tool: starts for any number of bots, one click each.

Keys 1-8 pick a bot's start as the brush; this tool needs no key per bot: a click on a free or
blocked field gives the next bot its start there (facing the middle of the arena), a click on a
start turns it right, the right button removes it (the bots after it are renumbered, as the file's
start lines number bots 1..n). Each click is one undo step.
"""

from __future__ import annotations

from editor.commands import SetTiles
from editor.games.base import expect
from editor.games.tron.grid import FREE_CELL, MAX_BOTS, TronGrid, start_cell
from editor.tools import RIGHT, Pointer, Tool, ToolContext
from engine.tron.arena import Heading


class StartTool(Tool):
    name, key, help = "starts", "T", "starts: add the next bot / turn (right: remove)"

    def press(self, ctx: ToolContext, p: Pointer) -> None:
        grid = expect(ctx.board, TronGrid, "Tron")
        if not grid.in_bounds(*p.tile):
            return
        x, y = p.tile
        cell = grid.tile(x, y)
        where = f"{x + 1},{y + 1}"
        if p.button == RIGHT:
            if cell.bot is not None:
                ctx.document.push(SetTiles({p.tile: FREE_CELL}, "remove start"))
                ctx.status(f"bot {cell.bot}'s start at {where} removed; the bots after it move up a number")
            return
        if cell.bot is not None and cell.heading is not None:
            turned = start_cell(cell.bot, cell.heading.right(), cell.short)
            ctx.document.push(SetTiles({p.tile: turned}, "turn start"))
            ctx.status(f"bot {cell.bot} at {where} now faces {cell.heading.right().name.lower()}")
            return
        bot = len(grid.starts()) + 1
        if bot > MAX_BOTS:
            ctx.status(f"the editor draws at most {MAX_BOTS} starts")
            return
        heading = Heading.EAST if x < grid.width / 2 else Heading.WEST
        ctx.document.push(SetTiles({p.tile: start_cell(bot, heading)}, "place start"))
        ctx.status(f"bot {bot} starts at {where} facing {heading.name.lower()}")
