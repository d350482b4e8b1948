"""Checks of the messages, components and modals a bot sends against Discord's limits,
answered as an Invalid Form Body with Discord's error codes."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from tests.fakes.discord.errors import _Errors
from tests.fakes.discord.protocol import _SELECT_TYPES, _V2_TOP_LEVEL


def _number_components(components: list[Any]) -> None:
    """Discord gives every component a numeric ``id`` (unique in the message) if it has none."""
    used: set[int] = set()
    nodes: list[dict[str, Any]] = []

    def walk(items: Iterable[Any]) -> None:
        for c in items:
            if not isinstance(c, dict):
                continue
            nodes.append(c)
            if isinstance(c.get("id"), int):
                used.add(c["id"])
            walk(c.get("components") or [])
            for key in ("accessory", "component"):
                if isinstance(c.get(key), dict):
                    walk([c[key]])

    walk(components)
    counter = itertools.count(1)
    for c in nodes:
        if not isinstance(c.get("id"), int):
            n = next(counter)
            while n in used:
                n = next(counter)
            c["id"] = n
            used.add(n)


def _validate_message(errs: _Errors, payload: dict[str, Any], *, v2: bool) -> None:
    content = payload.get("content") or ""
    embeds = payload.get("embeds") or []
    if v2:
        if content or embeds:
            errs.add(
                ["content" if content else "embeds"],
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used with IS_COMPONENTS_V2",
            )
    else:
        errs.length(["content"], content, 0, 2000)
        _validate_embeds(errs, embeds)
    _validate_components(errs, payload.get("components") or [], v2=v2)


def _validate_embeds(errs: _Errors, embeds: Any) -> None:
    if not isinstance(embeds, list):
        errs.add(["embeds"], "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(embeds) > 10:
        errs.add(["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, e in enumerate(embeds):
        p: list[str | int] = ["embeds", i]
        if not isinstance(e, dict):
            errs.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        errs.length([*p, "title"], e.get("title"), 0, 256)
        errs.length([*p, "description"], e.get("description"), 0, 4096)
        total += len(e.get("title") or "") + len(e.get("description") or "")
        fields = e.get("fields") or []
        if len(fields) > 25:
            errs.add([*p, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            errs.length([*p, "fields", j, "name"], f.get("name"), 1, 256, required=True)
            errs.length([*p, "fields", j, "value"], f.get("value"), 1, 1024, required=True)
            total += len(f.get("name") or "") + len(f.get("value") or "")
        if isinstance(e.get("footer"), dict):
            errs.length([*p, "footer", "text"], e["footer"].get("text"), 1, 2048, required=True)
            total += len(e["footer"].get("text") or "")
        if isinstance(e.get("author"), dict):
            errs.length([*p, "author", "name"], e["author"].get("name"), 1, 256, required=True)
            total += len(e["author"].get("name") or "")
        color = e.get("color")
        if color is not None and not (isinstance(color, int) and 0 <= color <= 0xFFFFFF):
            errs.add([*p, "color"], "NUMBER_TYPE_MAX", "int value should be <= 16777215 and >= 0.")
    if total > 6000:
        errs.add(["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def _validate_components(errs: _Errors, components: Any, *, v2: bool) -> None:
    if not isinstance(components, list):
        errs.add(["components"], "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if not v2 and len(components) > 5:
        errs.add(["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    custom_ids: dict[str, list[str | int]] = {}
    count = 0
    text_total = 0

    def need_custom_id(c: dict[str, Any], p: list[str | int]) -> None:
        cid = c.get("custom_id")
        errs.length([*p, "custom_id"], cid, 1, 100, required=True)
        if isinstance(cid, str):
            if cid in custom_ids:
                errs.add(
                    [*p, "custom_id"],
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            custom_ids[cid] = p

    def visit(c: Any, p: list[str | int], allowed: Sequence[int]) -> None:
        nonlocal count, text_total
        count += 1
        if not isinstance(c, dict):
            errs.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            return
        t = c.get("type")
        if t not in allowed:
            errs.add(
                [*p, "type"],
                "UNION_TYPE_CHOICES",
                f'Value of field "type" must be one of {tuple(allowed)}.',
            )
            return
        if t == 1:
            kids = c.get("components") or []
            if not 1 <= len(kids) <= 5:
                errs.add(
                    [*p, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
                )
            if (
                any(isinstance(k, dict) and k.get("type") in _SELECT_TYPES for k in kids)
                and len(kids) > 1
            ):
                errs.add(
                    [*p, "components"],
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
            for j, k in enumerate(kids):
                visit(k, [*p, "components", j], (2, *_SELECT_TYPES))
        elif t == 2:
            style = c.get("style")
            if style not in (1, 2, 3, 4, 5, 6):
                errs.add(
                    [*p, "style"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}."
                )
            elif style == 5:
                errs.length([*p, "url"], c.get("url"), 1, 512, required=True)
                if c.get("custom_id") is not None:
                    errs.add(
                        [*p, "custom_id"],
                        "BUTTON_COMPONENT_CUSTOM_ID_FORBIDDEN",
                        "A custom id cannot be set on link buttons",
                    )
            elif style == 6:
                if not c.get("sku_id"):
                    errs.add([*p, "sku_id"], "BASE_TYPE_REQUIRED", "This field is required")
            else:
                need_custom_id(c, p)
            errs.length([*p, "label"], c.get("label"), 0, 80)
            if style != 6 and not c.get("label") and not c.get("emoji"):
                errs.add(
                    [*p, "label"],
                    "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                    "A label or an emoji is required",
                )
        elif t in _SELECT_TYPES:
            need_custom_id(c, p)
            errs.length([*p, "placeholder"], c.get("placeholder"), 0, 150)
            lo, hi = c.get("min_values", 1), c.get("max_values", 1)
            if not (isinstance(lo, int) and 0 <= lo <= 25):
                errs.add([*p, "min_values"], "NUMBER_TYPE_MAX", "Must be between 0 and 25.")
            if not (isinstance(hi, int) and 1 <= hi <= 25):
                errs.add([*p, "max_values"], "NUMBER_TYPE_MAX", "Must be between 1 and 25.")
            if t == 3:
                options = c.get("options") or []
                if not 1 <= len(options) <= 25:
                    errs.add(
                        [*p, "options"],
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 25 in length.",
                    )
                values: set[str] = set()
                for j, o in enumerate(options):
                    errs.length([*p, "options", j, "label"], o.get("label"), 1, 100, required=True)
                    errs.length([*p, "options", j, "value"], o.get("value"), 1, 100, required=True)
                    errs.length([*p, "options", j, "description"], o.get("description"), 0, 100)
                    if o.get("value") in values:
                        errs.add(
                            [*p, "options", j, "value"],
                            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                            "Select component option value cannot be duplicated",
                        )
                    values.add(o.get("value"))
                if isinstance(hi, int) and options and hi > len(options):
                    errs.add(
                        [*p, "max_values"], "BASE_TYPE_MAX", f"Must be {len(options)} or less."
                    )
        elif t == 10:
            errs.length([*p, "content"], c.get("content"), 1, 4000, required=True)
            text_total += len(c.get("content") or "")
        elif t == 9:
            kids = c.get("components") or []
            if not 1 <= len(kids) <= 3:
                errs.add(
                    [*p, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length."
                )
            for j, k in enumerate(kids):
                visit(k, [*p, "components", j], (10,))
            if c.get("accessory") is None:
                errs.add([*p, "accessory"], "BASE_TYPE_REQUIRED", "This field is required")
            else:
                visit(c["accessory"], [*p, "accessory"], (2, 11))
        elif t == 17:
            for j, k in enumerate(c.get("components") or []):
                visit(k, [*p, "components", j], (1, 9, 10, 12, 13, 14))

    top = _V2_TOP_LEVEL if v2 else (1,)
    for i, c in enumerate(components):
        visit(c, ["components", i], top)
    if v2 and count > 40:
        errs.add(
            ["components"],
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
            "The message has more than 40 components",
        )
    if text_total > 4000:
        errs.add(
            ["components"],
            "COMPONENT_MAX_TEXT_LENGTH_EXCEEDED",
            "The total text of text displays exceeds 4000 characters",
        )


def _validate_modal(data: dict[str, Any]) -> None:
    errs = _Errors()
    errs.length(["data", "custom_id"], data.get("custom_id"), 1, 100, required=True)
    errs.length(["data", "title"], data.get("title"), 1, 45, required=True)
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        errs.add(
            ["data", "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    errs.raise_if_any()
