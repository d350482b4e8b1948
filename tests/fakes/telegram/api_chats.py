"""The Bot API methods about the bot, its commands and chats: getMe, set/get/deleteMyCommands,
set/getMyDescription and set/getMyShortDescription,
getChat, getChatMember, getChatAdministrators, sendChatAction, getFile; and who may post where."""

from __future__ import annotations

from typing import Any

from tests.fakes.base import FakeServer
from tests.fakes.telegram.errors import UPGRADED, ApiError
from tests.fakes.telegram.model import FakeChat, FakeUser
from tests.fakes.telegram.validation import _CHAT_ACTIONS, _check_commands, _commands_key


class ChatMethods(FakeServer):
    """Bot, command and chat methods, mixed into :class:`~tests.fakes.telegram.FakeTelegram`."""

    def _get_chat(self, chat_id: Any) -> FakeChat:
        if isinstance(chat_id, str):
            name = chat_id.removeprefix("@").lower()
            for c in self.chats.values():
                if c.username and c.username.lower() == name and c.type != "private":
                    return c
            raise ApiError("Bad Request: chat not found")
        if chat_id is None:
            raise ApiError("Bad Request: chat_id is empty")
        if chat_id in self._migrated:
            raise ApiError(UPGRADED, 400, {"migrate_to_chat_id": self._migrated[chat_id]})
        chat = self.chats.get(chat_id)
        if chat is None:
            if chat_id in self.users and chat_id > 0:
                raise ApiError("Forbidden: bot can't initiate conversation with a user", 403)
            raise ApiError("Bad Request: chat not found")
        return chat

    def _check_can_send(self, chat: FakeChat) -> None:
        if chat.type == "private" and chat.id in self._blocked:
            raise ApiError("Forbidden: bot was blocked by the user", 403)
        status = self._member_info(chat, self.bot_user)["status"]
        if chat.type != "private" and status in ("left", "kicked"):
            raise ApiError(f"Forbidden: bot is not a member of the {chat.type} chat", 403)

    def _member_info(self, chat: FakeChat, user: FakeUser) -> dict[str, Any]:
        info = self._members.get((chat.id, user.id))
        if info is not None:
            return info
        if chat.type == "private":
            return {"status": "member"}
        if user.is_bot or (chat.id, user.id) in self._seen_in_chat:
            return {"status": "member"}
        return {"status": "left"}

    async def _api_getMe(self, p: dict[str, Any]) -> Any:
        return {
            **self.bot_user.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _api_logOut(self, p: dict[str, Any]) -> Any:
        return True

    async def _api_close(self, p: dict[str, Any]) -> Any:
        return True

    async def _api_setMyCommands(self, p: dict[str, Any]) -> Any:
        clean = _check_commands(p.get("commands"))
        key = _commands_key(p)
        if clean:
            self.commands[key] = clean
        else:
            self.commands.pop(key, None)
        return True

    async def _api_getMyCommands(self, p: dict[str, Any]) -> Any:
        key = _commands_key(p)
        return [dict(c) for c in self.commands.get(key, [])]

    async def _api_deleteMyCommands(self, p: dict[str, Any]) -> Any:
        key = _commands_key(p)
        self.commands.pop(key, None)
        return True

    def _set_description(self, p: dict[str, Any], kind: str, limit: int) -> Any:
        """As the server does: at most `limit` characters; empty removes the language's."""
        text = str(p.get(kind) or "")
        if len(text) > limit:
            raise ApiError(f"Bad Request: {kind.upper()}_INVALID")
        language = str(p.get("language_code") or "")
        if language and len(language) != 2:
            raise ApiError("Bad Request: LANGUAGE_CODE_INVALID")
        if text:
            self.descriptions[(kind, language)] = text
        else:
            self.descriptions.pop((kind, language), None)
        return True

    def _get_description(self, p: dict[str, Any], kind: str) -> Any:
        language = str(p.get("language_code") or "")
        found = self.descriptions.get((kind, language), self.descriptions.get((kind, ""), ""))
        return {kind: found}

    async def _api_setMyDescription(self, p: dict[str, Any]) -> Any:
        return self._set_description(p, "description", 512)

    async def _api_getMyDescription(self, p: dict[str, Any]) -> Any:
        return self._get_description(p, "description")

    async def _api_setMyShortDescription(self, p: dict[str, Any]) -> Any:
        return self._set_description(p, "short_description", 120)

    async def _api_getMyShortDescription(self, p: dict[str, Any]) -> Any:
        return self._get_description(p, "short_description")

    async def _api_getChat(self, p: dict[str, Any]) -> Any:
        chat = self._get_chat(p.get("chat_id"))
        d = chat.to_api()
        d.update(
            {
                "accent_color_id": abs(chat.id) % 7,
                "max_reaction_count": 11,
                "accepted_gift_types": {
                    "unlimited_gifts": False,
                    "limited_gifts": False,
                    "unique_gifts": False,
                    "premium_subscription": False,
                    "gifts_from_channels": False,
                },
            }
        )
        return d

    def _chat_member(self, chat: FakeChat, user: FakeUser) -> dict[str, Any]:
        info = dict(self._member_info(chat, user))
        status = info.pop("status")
        d: dict[str, Any] = {"status": status, "user": user.to_api()}
        if status == "creator":
            d["is_anonymous"] = info.pop("is_anonymous", False)
        elif status == "administrator":
            rights = {
                "can_be_edited": False,
                "is_anonymous": False,
                "can_manage_chat": True,
                "can_delete_messages": True,
                "can_manage_video_chats": True,
                "can_restrict_members": True,
                "can_promote_members": False,
                "can_change_info": True,
                "can_invite_users": True,
                "can_post_stories": True,
                "can_edit_stories": True,
                "can_delete_stories": True,
                "can_pin_messages": True,
                "can_manage_topics": chat.is_forum,
            }
            rights.update(info)
            d.update(rights)
        elif status == "restricted":
            perms: dict[str, Any] = {
                k: False
                for k in (
                    "can_change_info",
                    "can_invite_users",
                    "can_pin_messages",
                    "can_send_messages",
                    "can_send_polls",
                    "can_send_other_messages",
                    "can_add_web_page_previews",
                    "can_manage_topics",
                    "can_send_audios",
                    "can_send_documents",
                    "can_send_photos",
                    "can_send_videos",
                    "can_send_video_notes",
                    "can_send_voice_notes",
                )
            }
            perms.update({"is_member": True, "until_date": 0})
            perms.update(info)
            d.update(perms)
        elif status == "kicked":
            d["until_date"] = info.pop("until_date", 0)
        return d

    async def _api_getChatMember(self, p: dict[str, Any]) -> Any:
        chat = self._get_chat(p.get("chat_id"))
        user = self.users.get(p.get("user_id", 0))
        if user is None:
            raise ApiError("Bad Request: user not found")
        if chat.type == "private" and user.id not in (chat.id, self.bot_user.id):
            raise ApiError("Bad Request: user not found")
        return self._chat_member(chat, user)

    async def _api_getChatAdministrators(self, p: dict[str, Any]) -> Any:
        chat = self._get_chat(p.get("chat_id"))
        if chat.type == "private":
            raise ApiError("Bad Request: there are no administrators in the private chat")
        admins = [
            self._chat_member(chat, self.users[uid])
            for (cid, uid), info in self._members.items()
            if cid == chat.id and info["status"] in ("creator", "administrator")
        ]
        admins.sort(key=lambda m: m["status"] != "creator")
        return admins

    async def _api_sendChatAction(self, p: dict[str, Any]) -> Any:
        chat = self._get_chat(p.get("chat_id"))
        self._check_can_send(chat)
        if p.get("action") not in _CHAT_ACTIONS:
            raise ApiError("Bad Request: wrong parameter action in request")
        self.chat_actions.append((chat.id, p["action"], p.get("message_thread_id")))
        return True

    async def _api_getFile(self, p: dict[str, Any]) -> Any:
        stored = self._files.get(p.get("file_id", ""))
        if stored is None or stored[0] is None:
            raise ApiError("Bad Request: invalid file_id")
        info = stored[1]
        return {
            "file_id": info["file_id"],
            "file_unique_id": info["file_unique_id"],
            "file_size": info["file_size"],
            "file_path": info["file_path"],
        }
