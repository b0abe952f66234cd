"""The HUD's card panel as plain data (no GL): which cards the round dealt, which five were
played in which order, which one is playing now, and where each card sits on screen.

``round_hand(player)`` reads the player and its timeline; ``panel_layout`` places the cards in
the bottom-left strip the camera keeps free (``PANEL_HEIGHT``). The pyglet drawing lives in
``viewer3d.hud``; a later HUD part (the AI's output lines, debug marks) can extend this model
without touching the drawing of cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.cards import Card
from viewer3d.playback import Player, chosen_card, step_label

CARD_W, CARD_H, CARD_GAP = 50.0, 70.0, 6.0
PANEL_MARGIN = 12.0
PANEL_BOTTOM = 44.0  # above the seek bar
PANEL_HEIGHT = CARD_H + 26.0  # cards and the caption above them


@dataclass(frozen=True)
class ShownCard:
    """One card in the panel: its name, its place in the played order (1-5, None if not played),
    whether it is the card playing now, and whether the robot has played it already."""

    label: str
    order: int | None
    current: bool
    done: bool


@dataclass(frozen=True)
class RoundHand:
    """The current round's cards as the panel shows them."""

    round_number: int
    cards: tuple[ShownCard, ...]
    dealt_known: bool  # the 8 dealt cards are shown (the deck is known); otherwise the 5 played

    @property
    def caption(self) -> str:
        what = "dealt 8, played in order 1-5" if self.dealt_known else "played in order (deck unknown)"
        return f"round {self.round_number}: {what}"


def _played_in_hand(hand: tuple[Card, ...], played: list[tuple[Card, ...]]) -> list[int | None]:
    """For each dealt card, its place (1-5) in the played order; ambiguous plays (several cards
    write the same lines) take the first candidate still free in the hand (``round_hand`` passes
    the AI's recorded choice as the only candidate where it has one)."""
    order: list[int | None] = [None] * len(hand)
    for place, candidates in enumerate(played, start=1):
        for card in candidates:
            slot = next((i for i, dealt in enumerate(hand) if dealt is card and order[i] is None), None)
            if slot is not None:
                order[slot] = place
                break
    return order


def round_hand(player: Player, chosen_in: Callable[[int], Sequence[Card] | None] | None = None) -> RoundHand | None:
    """The round now shown (None before the first card). ``chosen_in(round)``: the cards the AI
    chose that round, from its round record, where known: a blocked move (the same lines for
    MF 1, 2 and 3) is then shown as the card it was, not guessed from the hand."""
    timeline = player.timeline
    at = player.current_step_index()
    all_steps = timeline.steps
    if at is None or at >= len(all_steps):
        return None
    step = all_steps[at]
    number = step.round_number
    # the round's cards are the neighbours of this one: a few steps, not a pass over the whole game
    first, end = at, at + 1
    while first > 0 and all_steps[first - 1].round_number == number:
        first -= 1
    while end < len(all_steps) and all_steps[end].round_number == number:
        end += 1
    steps = all_steps[first:end]
    # At a round's start (after J, PgDn or PgUp) its first card is next, not playing: none is lit.
    now = step.index if player.round_start() is None else -1
    playing = player.time < timeline.card_ends[at] - 1e-9

    def state(index: int) -> tuple[bool, bool]:
        current = index == now
        done = index < now or (index == now and not playing)
        return current, done

    chosen = chosen_in(number) if chosen_in is not None else None
    hand = timeline.hand(number)
    if hand is not None:
        played = [(card,) if (card := chosen_card(s, chosen)) is not None else s.candidates for s in steps]
        order = _played_in_hand(hand, played)
        cards = []
        for card, place in zip(hand, order, strict=True):
            current, done = state(place - 1) if place is not None else (False, False)
            cards.append(ShownCard(card.value, place, current, done))
        return RoundHand(number, tuple(cards), True)
    shown = []
    for s in steps:
        current, done = state(s.index)
        shown.append(ShownCard(step_label(s, chosen), s.index + 1, current, done))
    return RoundHand(number, tuple(shown), False)


@dataclass(frozen=True)
class CardBox:
    """A card's rectangle in screen pixels (top-left origin)."""

    left: float
    top: float
    width: float
    height: float
    card: ShownCard


def panel_layout(hand: RoundHand, viewport: tuple[int, int]) -> list[CardBox]:
    """The cards side by side in the bottom-left strip; the current one raised a little."""
    _, height = viewport
    top = height - PANEL_BOTTOM - CARD_H
    boxes = []
    for index, card in enumerate(hand.cards):
        left = PANEL_MARGIN + index * (CARD_W + CARD_GAP)
        boxes.append(CardBox(left, top - (6.0 if card.current else 0.0), CARD_W, CARD_H, card))
    return boxes


def panel_width(count: int = 8) -> float:
    return PANEL_MARGIN + count * (CARD_W + CARD_GAP)
