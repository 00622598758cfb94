"""The synthetic traffic: who is in the sandbox world and which updates they send.

Everything is derived from one seed, so every target (the bot, the echo baseline, each
concurrency level) gets an identical world and an identical update stream.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.sandbox.world import BOT_JSON, SandboxGroup, SandboxUser, World

GAMES_CYCLE = ("cup", "shanghai", "armchair", "backgammon", "fincricket")
LANGUAGES = ("ru", "ru", "en", "fi")
GROUPS_PER_PLAYER = 2
_FIRST = ("Anna", "Boris", "Clara", "Denis", "Elena", "Fedor", "Galina", "Hugo", "Irina",
          "Juha", "Kirill", "Lena", "Mikko", "Nina", "Oleg", "Petra", "Roman", "Sofia",
          "Timur", "Ulla")
_LAST = ("Ivanova", "Smith", "Virtanen", "Petrov", "Korhonen", "Jones", "Sidorov", "Nieminen",
         "Brown", "Orlov", "Laine", "Taylor", "Volkov", "Makinen", "Wilson", "Popov",
         "Heikkinen", "Clark", "Lebedev", "Koskinen")
_CHATTER = ("gg", "who is playing tonight?", "ok", "lol", "when does it start", "👍",
            "brb", "nice one", "I'm in", "what are the rules?")
_DM_CHATTER = ("hi", "hello bot", "how do I register?", "thanks", "?")

# What a measured update is, in percent. Group traffic dominates, as in a real deployment.
MIX = (
    ("try", 20),           # /try in a group: reply, no writes
    ("help", 8),           # /help in a group
    ("players", 14),       # /players in a group: reads the entrants list
    ("register", 14),      # /register [Name_Surname] in a group: writes an entrant
    ("chatter", 12),       # plain group text: middlewares and filters, no handler
    ("dm_text", 12),       # DM text: the registration form (a name) or small talk
    ("dm_start", 6),       # /start or /start reg-<id> in a DM
    ("stale_button", 11),  # a press on an old button in a group
    ("duplicate", 3),      # Telegram delivers an earlier update again
)


@dataclass
class Population:
    groups: list[SandboxGroup]
    organisers: list[SandboxUser]
    players: list[SandboxUser]
    members: dict[int, list[SandboxUser]]  # group id -> players who talk there
    games: dict[int, str]  # group id -> the game of its tournament

    def tournament_id(self, group: SandboxGroup) -> int:
        """Tournaments are created one per group, in group order, on a fresh database."""
        return self.groups.index(group) + 1


def name_of(user: SandboxUser) -> str:
    """A registration name in the shape the form accepts (Имя_Фамилия), unique per user."""
    n = user.id
    return f"{_FIRST[n % len(_FIRST)]}_{_LAST[(n // len(_FIRST)) % len(_LAST)]}"


def populate(world: World, *, groups: int, players: int, seed: int) -> Population:
    """Create the users and groups in ``world``; everyone has started the bot in a DM."""
    rng = random.Random(seed)
    group_list, organisers, games = [], [], {}
    for i in range(groups):
        group = world.group(f"g{i:02d}")
        organiser = world.user(f"org{i:02d}")
        group.creator = organiser.id
        group_list.append(group)
        organisers.append(organiser)
        games[group.id] = GAMES_CYCLE[i % len(GAMES_CYCLE)]
    player_list = [world.user(f"p{i:03d}") for i in range(players)]
    members: dict[int, list[SandboxUser]] = {g.id: [] for g in group_list}
    for player in player_list:
        for group in rng.sample(group_list, min(GROUPS_PER_PLAYER, len(group_list))):
            members[group.id].append(player)
    for user in world.users.values():
        user.started = True
        user.language = rng.choice(LANGUAGES)
    for group in group_list:  # every group has someone to talk
        if not members[group.id]:
            members[group.id].append(rng.choice(player_list))
    return Population(group_list, organisers, player_list, members, games)


class UpdateFactory:
    """Builds raw update dicts the way ``bot.sandbox.runner`` does."""

    def __init__(self, world: World, population: Population, *, seed: int,
                 date: datetime) -> None:
        self.world = world
        self.pop = population
        self.rng = random.Random(seed)
        self.date = int(date.timestamp())
        self.recent: list[dict[str, Any]] = []

    # -- single updates ----------------------------------------------------------------

    def message(self, user: SandboxUser, chat_id: int, text: str) -> dict[str, Any]:
        payload = {"message_id": self.world.next_message_id(chat_id), "date": self.date,
                   "chat": self.world.chat_json(chat_id), "from": user.as_json(), "text": text}
        if text.startswith("/"):
            command = text.split()[0]
            payload["entities"] = [{"type": "bot_command", "offset": 0,
                                    "length": len(command)}]
        return self._update({"message": payload})

    def callback(self, user: SandboxUser, group: SandboxGroup, data: str) -> dict[str, Any]:
        """A press on a button of an old bot message in ``group``."""
        old = {"message_id": self.rng.randint(1, 50), "date": self.date - 86400,
               "chat": group.as_json(), "from": BOT_JSON, "text": "…"}
        update_id = self.world.next_update_id()
        return self._update({"callback_query": {
            "id": str(update_id * 7919), "from": user.as_json(), "message": old,
            "chat_instance": str(group.id), "data": data}}, update_id)

    def _update(self, body: dict[str, Any], update_id: int | None = None) -> dict[str, Any]:
        update = {"update_id": update_id or self.world.next_update_id(), **body}
        self.recent = (self.recent + [update])[-50:]
        return update

    # -- streams -----------------------------------------------------------------------

    def setup(self) -> list[dict[str, Any]]:
        """Each organiser opens a tournament in their group (fed before the warm-up)."""
        return [self.message(organiser, group.id,
                             f"/new {self.pop.games[group.id]} Cup {group.name}")
                for group, organiser in zip(self.pop.groups, self.pop.organisers, strict=True)]

    def mixed(self, count: int) -> list[dict[str, Any]]:
        kinds, weights = zip(*MIX, strict=True)
        return [self._one(kind) for kind in self.rng.choices(kinds, weights, k=count)]

    def _one(self, kind: str) -> dict[str, Any]:
        rng = self.rng
        if kind == "duplicate" and self.recent:
            return rng.choice(self.recent)
        if kind in ("dm_text", "dm_start"):
            user = rng.choice(self.pop.players)
            if kind == "dm_start":
                group = rng.choice(self.pop.groups)
                text = rng.choice(("/start", f"/start reg-{self.pop.tournament_id(group)}"))
            elif rng.random() < 0.6:
                text = name_of(user)
            else:
                text = rng.choice(_DM_CHATTER)
            return self.message(user, user.id, text)
        group = rng.choice(self.pop.groups)
        user = rng.choice(self.pop.members[group.id])
        if kind == "stale_button":
            return self.callback(user, group, self._stale_data(group, user))
        text = {
            "try": "/try",
            "help": "/help",
            "players": "/players",
            "chatter": rng.choice(_CHATTER),
        }.get(kind)
        if text is None:  # register
            text = "/register" if rng.random() < 0.3 else f"/register {name_of(user)}"
        return self.message(user, group.id, text)

    def _stale_data(self, group: SandboxGroup, user: SandboxUser) -> str:
        tournament = self.pop.tournament_id(group)
        other = self.rng.choice(self.pop.players).id
        return self.rng.choice((
            f"app:{tournament}:{other}:1",  # Approve pressed by a player: organisers only
            f"ci:{tournament}",             # check-in that is not open
            "ci:999999",                    # a tournament that does not exist
            "lang:xx",                      # a language that is not offered
        ))
