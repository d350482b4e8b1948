"""Checks of the application commands a bot registers (names, descriptions, localizations,
options, choices, how many) against Discord's rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.fakes.discord.errors import _Errors
from tests.fakes.discord.protocol import _CHAT_NAME_RE, LOCALES


def _validate_commands(commands: list[Any], *, only: int = 0) -> None:
    """Validate a full set of commands (``only``: skip the first N, already stored)."""
    errs = _Errors()
    seen: dict[tuple[int, str], int] = {}
    counts = {1: 0, 2: 0, 3: 0}
    for i, cmd in enumerate(commands):
        if not isinstance(cmd, dict):
            errs.add([i], "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        ctype = cmd.get("type", 1)
        key = (ctype, str(cmd.get("name")))
        if key in seen:
            errs.add(
                [i, "name"],
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique ({cmd.get('name')})",
            )
        seen[key] = i
        if ctype in counts:
            counts[ctype] += 1
        if i < only:
            continue
        p: list[str | int] = [i]
        if ctype not in (1, 2, 3, 4):
            errs.add([*p, "type"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
            continue
        _check_name(errs, [*p, "name"], cmd.get("name"), chat=ctype == 1)
        if ctype == 1:
            errs.length([*p, "description"], cmd.get("description"), 1, 100, required=True)
        elif cmd.get("description"):
            errs.add(
                [*p, "description"],
                "APPLICATION_COMMAND_DESCRIPTION_FORBIDDEN",
                "Context menu commands cannot have a description",
            )
        _check_localizations(
            errs,
            p,
            cmd,
            "name_localizations",
            lambda e, q, v, c=ctype: _check_name(e, q, v, chat=c == 1),
        )
        _check_localizations(errs, p, cmd, "description_localizations", _check_text)
        perms = cmd.get("default_member_permissions")
        if perms is not None and not (isinstance(perms, str) and perms.isdigit()):
            errs.add(
                [*p, "default_member_permissions"],
                "BASE_TYPE_STRING",
                "Must be a string of digits.",
            )
        if cmd.get("options"):
            if ctype != 1:
                errs.add(
                    [*p, "options"],
                    "APPLICATION_COMMAND_OPTIONS_FORBIDDEN",
                    "Only chat input commands can have options",
                )
            else:
                _check_options(errs, [*p, "options"], cmd["options"], "command")
    if counts[1] > 100:
        errs.add([], "APPLICATION_COMMANDS_TOO_MANY", "Maximum number of chat input commands (100)")
    if counts[2] > 15 or counts[3] > 15:
        errs.add(
            [], "APPLICATION_COMMANDS_TOO_MANY", "Maximum number of context menu commands (15)"
        )
    errs.raise_if_any()


def _check_name(errs: _Errors, path: list[str | int], name: Any, *, chat: bool) -> None:
    if not isinstance(name, str) or not name:
        errs.add(path, "BASE_TYPE_REQUIRED", "This field is required")
    elif chat and (not _CHAT_NAME_RE.fullmatch(name) or name != name.lower()):
        errs.add(path, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
    else:
        errs.length(path, name, 1, 32)


def _check_localizations(
    errs: _Errors,
    path: list[str | int],
    item: dict[str, Any],
    key: str,
    check: Callable[[_Errors, list[str | int], Any], None],
) -> None:
    """Check each of the localizations ``item[key]`` (at ``path``) with ``check``."""
    locs = item.get(key)
    path = [*path, key]
    if locs is None:
        return
    if not isinstance(locs, dict):
        errs.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    for locale, value in locs.items():
        if locale not in LOCALES:
            errs.add([*path, locale], "LOCALE_INVALID", f"Invalid locale {locale!r}")
        else:
            check(errs, [*path, locale], value)


def _check_chat_name(errs: _Errors, path: list[str | int], name: Any) -> None:
    _check_name(errs, path, name, chat=True)


def _check_text(errs: _Errors, path: list[str | int], text: Any) -> None:
    """A localized description or choice name: 1 to 100 characters."""
    errs.length(path, text, 1, 100, required=True)


def _check_options(errs: _Errors, path: list[str | int], options: Any, parent: str) -> None:
    if not isinstance(options, list):
        errs.add(path, "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(options) > 25:
        errs.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    types = [o.get("type") for o in options if isinstance(o, dict)]
    subs = [t for t in types if t in (1, 2)]
    if subs and len(subs) != len(types):
        errs.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive "
            "to all other types",
        )
    names: set[str] = set()
    optional_seen = False
    for i, o in enumerate(options):
        p = [*path, i]
        if not isinstance(o, dict):
            errs.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        t = o.get("type")
        if t not in range(1, 12):
            errs.add([*p, "type"], "BASE_TYPE_CHOICES", "Value must be between 1 and 11.")
            continue
        _check_name(errs, [*p, "name"], o.get("name"), chat=True)
        if o.get("name") in names:
            errs.add(
                [*p, "name"],
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        names.add(o.get("name"))
        errs.length([*p, "description"], o.get("description"), 1, 100, required=True)
        _check_localizations(errs, p, o, "name_localizations", _check_chat_name)
        _check_localizations(errs, p, o, "description_localizations", _check_text)
        if t == 2:
            if parent != "command":
                errs.add(
                    [*p, "type"],
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Sub-command groups can only be nested in a command",
                )
            kids = o.get("options") or []
            if not kids or any(k.get("type") != 1 for k in kids if isinstance(k, dict)):
                errs.add(
                    [*p, "options"],
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "A sub-command group must contain sub-commands only",
                )
            _check_options(errs, [*p, "options"], kids, "group")
        elif t == 1:
            if parent == "sub":
                errs.add(
                    [*p, "type"],
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Sub-commands cannot be nested in sub-commands",
                )
            _check_options(errs, [*p, "options"], o.get("options") or [], "sub")
        else:
            if parent == "group":
                errs.add(
                    [*p, "type"],
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "A sub-command group must contain sub-commands only",
                )
            if o.get("required"):
                if optional_seen:
                    errs.add(
                        [*p, "required"],
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
            else:
                optional_seen = True
            choices = o.get("choices")
            if choices:
                if t not in (3, 4, 10):
                    errs.add(
                        [*p, "choices"],
                        "APPLICATION_COMMAND_OPTION_CHOICES_FORBIDDEN",
                        "Only string, integer and number options can have choices",
                    )
                if o.get("autocomplete"):
                    errs.add(
                        [*p, "autocomplete"],
                        "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                        "Autocomplete cannot be used with choices",
                    )
                if len(choices) > 25:
                    errs.add(
                        [*p, "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                    )
                for j, ch in enumerate(choices):
                    q = [*p, "choices", j]
                    errs.length([*q, "name"], ch.get("name"), 1, 100, required=True)
                    _check_localizations(errs, q, ch, "name_localizations", _check_text)
                    value = ch.get("value")
                    if t == 3:
                        errs.length([*q, "value"], value, 1, 100, required=True)
                    elif (
                        not isinstance(value, int | float)
                        or isinstance(value, bool)
                        or (t == 4 and not isinstance(value, int))
                    ):
                        errs.add(
                            [*q, "value"], "NUMBER_TYPE_COERCE", f"Value {value!r} is not a number."
                        )
            if t == 3:
                lo, hi = o.get("min_length"), o.get("max_length")
                if lo is not None and not (isinstance(lo, int) and 0 <= lo <= 6000):
                    errs.add([*p, "min_length"], "NUMBER_TYPE_MAX", "Must be between 0 and 6000.")
                if hi is not None and not (isinstance(hi, int) and 1 <= hi <= 6000):
                    errs.add([*p, "max_length"], "NUMBER_TYPE_MAX", "Must be between 1 and 6000.")
