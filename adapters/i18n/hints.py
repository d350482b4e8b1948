"""The best choices of a throw in words, with expected points and chances of winning."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adapters.i18n import Translator
from adapters.i18n.chances import percent
from adapters.i18n.dice import box_name, dice_text

if TYPE_CHECKING:  # the strategy loads numpy: imported here only for types
    from core.strategy import Choice


def choice_text(t: Translator, choice: Choice, dice: tuple[int, ...]) -> str:
    """A decision in words: which dice to keep, or which box to write and for how much."""
    if choice.box is not None:
        return t("hint-box", box=box_name(t, choice.box), points=choice.points)
    keep = choice.keep or ()
    if not keep:
        return t("hint-keep-none")
    if len(keep) == len(dice):  # a review of a game logged before a throw had to throw a die
        return t("hint-keep-all")
    return t("hint-keep", dice=dice_text(keep))


def hint_lines(
    t: Translator,
    options: list[Choice],
    dice: tuple[int, ...],
    count: int = 4,
    shares: tuple[float, ...] = (),
    places: bool = False,
) -> list[str]:
    """The best few choices with their expected final points, best first, and each one's
    chance of winning where the table is a race (`shares`, in the same order); where another
    choice gives the best chance, it is named first (a short answer keeps the first lines).
    `places`: a tournament's table, where the shares are expected place points (0 to 1)."""
    if not shares:
        lines = [t("hint-title")]
        for rank, option in enumerate(options[:count], start=1):
            text = choice_text(t, option, dice)
            lines.append(t("hint-line", rank=rank, choice=text, expected=option.expected))
        return lines
    kind = "places" if places else "chances"

    def value(share: float) -> str:
        return t("hint-place-points", points=share) if places else percent(t, share)

    lines = [t(f"hint-title-{kind}")]
    best = max(range(len(shares)), key=lambda index: (shares[index], -index))
    if shares[best] > shares[0] + 1e-12:
        text = choice_text(t, options[best], dice)
        aim = "hint-for-the-event" if places else "hint-for-the-win"
        lines.append(t(aim, choice=text, value=value(shares[best])))
    for rank, (option, share) in enumerate(zip(options[:count], shares, strict=False), start=1):
        text = choice_text(t, option, dice)
        said = value(share)
        lines.append(
            t("hint-line-chances", rank=rank, choice=text, expected=option.expected, value=said)
        )
    return lines
