"""The card panel drawn with pyglet: the round's cards (``viewer3d.cards``) as small cards.

Played cards carry their place in the order (1-5) in a badge; the card playing now is raised and
outlined in yellow; cards already played are dimmed a little, cards not chosen more. The shapes
are made once (eight slots) and only moved and re-labelled when the hand on screen changes."""

from __future__ import annotations

from typing import Any

from viewer3d.cards import CARD_H, RoundHand, panel_layout

SLOTS = 8
CARD_FACE = (236, 230, 214, 255)
NOT_PLAYED = (120, 122, 130, 255)
CURRENT = (255, 212, 60, 255)
BADGE = (40, 110, 200, 255)


class CardPanelOverlay:
    """Eight card slots and a caption in a pyglet batch (back, front groups given by the HUD)."""

    def __init__(self, batch: Any, back: Any, front: Any) -> None:
        import pyglet

        self._shown: tuple[object, ...] | None = None
        self.caption = pyglet.text.Label(
            "", x=0, y=0, font_size=10, color=(220, 228, 240, 255), batch=batch, group=front
        )

        def centred(size: int, colour: tuple[int, int, int, int]) -> Any:
            return pyglet.text.Label(
                "",
                font_size=size,
                weight="bold",
                color=colour,
                anchor_x="center",
                anchor_y="center",
                batch=batch,
                group=front,
            )

        self.slots = []
        for _ in range(SLOTS):
            outline = pyglet.shapes.Rectangle(0, 0, 1, 1, color=CURRENT, batch=batch, group=back)
            face = pyglet.shapes.Rectangle(0, 0, 1, 1, color=CARD_FACE, batch=batch, group=back)
            name = centred(12, (30, 30, 40, 255))
            badge = pyglet.shapes.Circle(0, 0, 9, color=BADGE, batch=batch, group=front)
            order = centred(9, (255, 255, 255, 255))
            self.slots.append((outline, face, name, badge, order))
        self.update(None, (1, 1))

    def update(self, hand: RoundHand | None, viewport: tuple[int, int]) -> None:
        """Show ``hand`` (None: nothing) laid out for a window of ``viewport`` pixels."""
        key = (hand, viewport)
        if key == self._shown:
            return
        self._shown = key
        height = viewport[1]
        boxes = panel_layout(hand, viewport) if hand is not None else []
        self.caption.text = hand.caption if hand is not None else ""
        if boxes:
            self.caption.x = boxes[0].left
            self.caption.y = height - min(b.top for b in boxes) + 6.0
        for index, (outline, face, name, badge, order) in enumerate(self.slots):
            visible = index < len(boxes)
            for part in (outline, face, name, badge, order):
                part.visible = visible
            if not visible:
                continue
            box = boxes[index]
            card = box.card
            bottom = height - box.top - box.height  # pyglet y grows upwards
            face.x, face.y, face.width, face.height = box.left, bottom, box.width, box.height
            outline.x, outline.y = box.left - 3, bottom - 3
            outline.width, outline.height = box.width + 6, box.height + 6
            outline.visible = card.current
            played = card.order is not None
            colour = CARD_FACE if played else NOT_PLAYED
            if card.done and not card.current:
                colour = (int(colour[0] * 0.78), int(colour[1] * 0.78), int(colour[2] * 0.78), 255)
            face.color = colour
            name.text = card.label
            name.x, name.y = box.left + box.width / 2, bottom + CARD_H * 0.45
            badge.visible = order.visible = played
            badge.x, badge.y = box.left + box.width - 10, bottom + box.height - 10
            order.text = str(card.order) if played else ""
            order.x, order.y = badge.x, badge.y
