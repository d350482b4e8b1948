"""REST routes of interactions: the initial callback (types 4-9 and 12), follow-ups, and the webhook
messages (``@original`` and follow-ups) read, edited and deleted."""

from __future__ import annotations

import copy
import time
from typing import Any

from tests.fakes.base import FakeServer
from tests.fakes.discord.errors import _ApiError, _Errors, _invalid_form
from tests.fakes.discord.http import _Ctx
from tests.fakes.discord.interaction import FakeInteraction, FakeResponse
from tests.fakes.discord.message import FakeMessage, _Files
from tests.fakes.discord.protocol import (
    _AUTOCOMPLETE,
    _COMMAND,
    _COMPONENT,
    _MODAL_SUBMIT,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    LAUNCH_ACTIVITY,
    MODAL,
    UPDATE_MESSAGE,
)
from tests.fakes.discord.validation import _validate_modal


class InteractionRoutes(FakeServer):
    """Interaction routes, mixed into :class:`~tests.fakes.discord.FakeDiscord`."""

    def _r_callback(self, ctx: _Ctx) -> tuple[int, Any]:
        inter = self._interactions.get(ctx.params["iid"])
        if inter is None or inter.expired:
            raise _ApiError(404, 10062, "Unknown interaction")
        if inter.token != ctx.params["token"]:
            raise _ApiError(401, 50027, "Invalid Webhook Token")
        if inter.response is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = ctx.body if isinstance(ctx.body, dict) else {}
        rtype = body.get("type")
        data = body.get("data") if isinstance(body.get("data"), dict) else {}
        allowed = {
            _COMMAND: {4, 5, 9, LAUNCH_ACTIVITY},
            _COMPONENT: {4, 5, 6, 7, 9, LAUNCH_ACTIVITY},
            _AUTOCOMPLETE: {8},
            _MODAL_SUBMIT: {4, 5, 6, 7} if inter.message is not None else {4, 5},
        }[inter.type]
        if rtype == LAUNCH_ACTIVITY and not self.activity:
            raise _ApiError(400, 50035, "Invalid Form Body: this application has no Activity")
        if rtype not in allowed:
            raise _invalid_form(
                ["type"],
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Interaction response type {rtype} is not valid here",
            )
        message: FakeMessage | None = None
        if rtype == CHANNEL_MESSAGE:
            message = self._interaction_message(inter, data, ctx.files)
            inter._original = message
        elif rtype == DEFERRED_CHANNEL_MESSAGE:
            flags = FLAG_LOADING | (int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self._interaction_message(inter, {"flags": flags}, {}, loading=True)
            inter._original = message
        elif rtype == DEFERRED_UPDATE_MESSAGE:
            message = inter.message
            inter._original = message
        elif rtype == UPDATE_MESSAGE:
            assert inter.message is not None
            message = inter.message
            self._edit_message(message, data, ctx.files)
            inter._original = message
        elif rtype == AUTOCOMPLETE_RESULT:
            errs = _Errors()
            choices = data.get("choices") or []
            if len(choices) > 25:
                errs.add(
                    ["data", "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                )
            for i, ch in enumerate(choices):
                errs.length(["data", "choices", i, "name"], ch.get("name"), 1, 100, required=True)
            errs.raise_if_any()
            inter.choices = choices
        elif rtype == MODAL:
            _validate_modal(data)
            inter.modal = copy.deepcopy(data)
        inter.response = FakeResponse(rtype, copy.deepcopy(body.get("data")), message, time.time())
        if inter._timer is not None:
            inter._timer.cancel()
        inter._answered.set()
        self._notify()
        if ctx.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        resp_msg = message if rtype in (4, 5, 6, 7) else None
        summary: dict[str, Any] = {"id": inter.id, "type": inter.type}
        if resp_msg is not None:
            summary.update(
                response_message_id=resp_msg.id,
                response_message_loading=resp_msg.loading,
                response_message_ephemeral=resp_msg.ephemeral,
            )
        resource: dict[str, Any] = {"type": rtype}
        if rtype == LAUNCH_ACTIVITY:  # the activity's instance, as Discord names it
            summary["activity_instance_id"] = f"i-{inter.id}"
            resource["activity_instance"] = {"id": f"i-{inter.id}"}
        if resp_msg is not None and rtype != DEFERRED_UPDATE_MESSAGE:
            resource["message"] = self._message_payload(resp_msg)
        return 200, {"interaction": summary, "resource": resource}

    def _hook_interaction(self, ctx: _Ctx) -> FakeInteraction:
        inter = self._by_token.get(ctx.params["token"])
        if ctx.params["app"] != self.application_id or inter is None:
            raise _ApiError(404, 10015, "Unknown Webhook")
        return inter

    def _r_followup(self, ctx: _Ctx) -> tuple[int, Any]:
        inter = self._hook_interaction(ctx)
        if inter.response is None or inter.response.type in (AUTOCOMPLETE_RESULT, MODAL):
            raise _ApiError(404, 10015, "Unknown Webhook")
        body = ctx.body if isinstance(ctx.body, dict) else {}
        original = inter._original
        if (
            inter.response.type == DEFERRED_CHANNEL_MESSAGE
            and not inter._loading_replaced
            and original is not None
            and not original.deleted
        ):
            # The first follow-up after a "thinking" defer replaces the loading message (keeping
            # the defer's ephemerality).
            inter._loading_replaced = True
            data = dict(body)
            data["flags"] = (int(body.get("flags") or 0) & ~FLAG_EPHEMERAL) | (
                original.flags & FLAG_EPHEMERAL
            )
            self._edit_message(original, data, ctx.files, finish_loading=True)
            message = original
        else:
            message = self._interaction_message(inter, body, ctx.files, followup=True)
        inter.followups.append(message)
        self._notify()
        if ctx.query.get("wait") in ("1", "true", "True"):
            return 200, self._message_payload(message)
        return 204, None

    def _r_hook_message(self, ctx: _Ctx) -> tuple[int, Any]:
        inter = self._hook_interaction(ctx)
        mid = ctx.params["mid"]
        if mid == "@original":
            message = inter._original
        else:
            message = next((m for m in inter.messages if m.id == mid), None)
            if message is None and inter._original is not None and inter._original.id == mid:
                message = inter._original
        if message is None or message.deleted:
            raise _ApiError(404, 10008, "Unknown Message")
        if ctx.method == "GET":
            return 200, self._message_payload(message)
        if ctx.method == "DELETE":
            self._delete_message(message)
            return 204, None
        body = dict(ctx.body) if isinstance(ctx.body, dict) else {}
        finish = message.loading
        if finish and inter._original is message:
            inter._loading_replaced = True
        self._edit_message(message, body, ctx.files, finish_loading=finish)
        return 200, self._message_payload(message)

    def _interaction_message(
        self,
        inter: FakeInteraction,
        data: dict[str, Any],
        files: _Files,
        *,
        followup: bool = False,
        loading: bool = False,
    ) -> FakeMessage:
        flags = int(data.get("flags") or 0)
        ephemeral = bool(flags & FLAG_EPHEMERAL)
        meta: dict[str, Any] = {
            "id": inter.id,
            "type": inter.type,
            "user": inter.user.payload(),
            "authorizing_integration_owners": {"0": inter.channel.guild.id},
        }
        if inter.type == _COMMAND:
            meta["name"] = inter.data.get("name")
            meta["command_type"] = 1
        if inter.message is not None:
            meta["interacted_message_id"] = inter.message.id
        if followup and inter._original is not None:
            meta["original_response_message_id"] = inter._original.id
        msg_type = 20 if inter.type == _COMMAND and not followup else 0
        return self._new_message(
            inter.channel,
            self.bot_user,
            data,
            files,
            msg_type=msg_type,
            webhook=True,
            ephemeral_user=inter.user if ephemeral else None,
            interaction=inter,
            extra={"interaction_metadata": meta},
            allow_flags=FLAG_EPHEMERAL | (FLAG_LOADING if loading else 0),
            loading=loading,
        )
