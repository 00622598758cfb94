"""Random but plausible transcript lines for one tournament of one game.

The generator looks at the sandbox's world as it goes (which buttons the bot shows, whom it
names), so that matches really get played; every line it returns is an ordinary transcript
line, so a run can be replayed from the lines alone.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from bot.sandbox.world import StoredMessage, World

GAMES = ("cup", "shanghai", "fincricket", "backgammon", "armchair")
PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
SURNAMES = ("Smith", "Stone", "King", "Jones", "Brown", "Olsen", "Virtanen", "Petrova")
WEIRD = ("", " ", "0", "-1", "999999999", "Ω≈ç√∫ 😀🎲", "<b>bold</b>", "<script>x</script>",
         "a < b & c > d", "&amp;&lt;&#9999999;", "</i>", "@", "@nobody", "#0", "#999",
         "'; DROP TABLE users; --", "x" * 300, "я" * 4000, "\u202eevil", "Имя_Фамилия",
         "#" + "9" * 20, "m-" + "9" * 25, "reg-" + "9" * 25, "in 99999999 hours",
         "20:00 Europe", "9" * 30)
COMMANDS = ("/settings", "/schedule", "/closereg", "/openreg", "/add", "/remove", "/begin",
            "/pause", "/resume", "/export", "/register", "/withdraw", "/result", "/confirm",
            "/setresult", "/dq", "/replace", "/reopen", "/hostcopy", "/reentry", "/checkin",
            "/players", "/match", "/roll", "/standings", "/bracket", "/try", "/starter",
            "/board", "/correct", "/help", "/rules", "/lang", "/new", "/start", "/cancel",
            "/dispute", "/hand", "/resign", "/challenge", "/practice")
CUP_WORDS = ("ничья", "переброс", "312", "231", "третья, первая, вторая", "убираю 3",
             "убираю 1", "чек", "колл", "рейз 3", "рейз 999", "фолд", "олл-ин", "/try", "/roll")
SETTINGS = {"cup": ("qualifiers=4", "qualifiers=2", "groups=2", "payout=pot", "chips=5", "hp=3",
                    "formats=order,betting", "qualifiers=16", "qualifiers=2 formats=hp"),
            "shanghai": ("legs=1", "legs=3", "bull=strict", "format=single_elim", "legs=2"),
            "fincricket": ("legs=1", "legs=3", "format=swiss", "rounds=2"),
            "backgammon": ("format=swiss", "format=double_elim", "length=3", "rounds=2",
                           "deadline=30", "format=groups_playoff"),
            "armchair": ("format=single_elim", "format=reentry", "format=swiss_elim",
                         "third_place=on", "format=round_robin", "deadline=5")}


@dataclass
class Plan:
    """One transcript's cast: a group, an organiser, players, and what was generated."""

    game: str
    group: str
    organiser: str
    players: list[str]
    lines: list[str] = field(default_factory=list)
    resume_in: int | None = None
    """Lines until the organiser sends /resume: set when play was paused (a /pause, the bot
    removed), as an organiser soon goes on; else a paused transcript stalls to its end."""
    replay_next: bool = False
    """The next line is ``! replay``: a ``! restart`` is often followed by the update before
    it delivered again, as Telegram delivers an update the stopped bot never confirmed (an
    update that wrote nothing is not claimed, so the new process handles it again)."""


def new_plan(rng: random.Random, game: str, number: int) -> Plan:
    players = rng.sample(PLAYERS, rng.randint(2, len(PLAYERS)))
    return Plan(game, f"g{number % 3}", "org", players)


def name(handle: str) -> str:
    return f"{handle.capitalize()}_{SURNAMES[PLAYERS.index(handle)]}"


def setup(rng: random.Random, plan: Plan) -> list[str]:
    """Create the tournament, register every player, start it."""
    g, org = plan.group, plan.organiser
    extra = " ".join(rng.sample(SETTINGS[plan.game], rng.randint(0, 2)))
    lines = [f"{org}@{g}: /new {plan.game} Fuzz {rng.choice(WEIRD[:8])} approval=off {extra}"]
    for handle in plan.players:
        lines.append(f"{handle}@{g}: {rng.choice(('hi', 'привет', '👋', 'moi'))}")
        if plan.game != "cup":
            lines.append(f"{handle}@{g}: /register")
            if plan.game == "armchair" and rng.random() < 0.8:  # the hand comes to the DM
                lines.append(f"{handle}@dm: /start")
        elif rng.random() < 0.6:
            lines.append(f"{org}@{g}: /add @{handle} {name(handle)}")
        else:
            lines += [f"{handle}@{g}: /register {name(handle)}",
                      f"{handle}@{g}: [📝 Зарегистрироваться]", f"{handle}@dm: photo: stats"]
    if rng.random() < 0.2:
        lines.insert(rng.randint(1, len(lines)), noise(rng, plan))
    if rng.random() < 0.05:  # called off before the start: everything after is refused
        lines += [f"{org}@{g}: /cancel", f"{org}@{g}: [❌ Отменить]"]
    return [*lines, f"{org}@{g}: /begin"]


def step(rng: random.Random, plan: Plan, world: World) -> str:
    """One line of play: mostly the game itself, some buttons, some noise; a bot removed
    from the group is soon added back (meanwhile nothing said there reaches it), an
    organiser posting as the group soon posts as themselves again, and paused play is soon
    resumed."""
    line = _next_line(rng, plan, world)
    pausing = line == f"! remove bot@{plan.group}" or re.search(r": /pause\b", line)
    if pausing and plan.resume_in is None:
        plan.resume_in = rng.randint(3, 12)
    return line


def _next_line(rng: random.Random, plan: Plan, world: World) -> str:
    if plan.replay_next:
        plan.replay_next = False
        return "! replay"
    roll = rng.random()
    group = world.group(plan.group)
    if group.id in world.left and roll < 0.5:
        return f"! add bot@{plan.group}"
    if world.anonymous and roll < 0.3:
        return f"! anonymous {plan.organiser}@{plan.group} off"
    if plan.resume_in is not None and group.id not in world.left:
        plan.resume_in -= 1
        if plan.resume_in <= 0:
            plan.resume_in = None
            return f"{plan.organiser}@{plan.group}: /resume"
    if roll < 0.45:
        return play(rng, plan, world)
    if roll < 0.75:
        return press(rng, plan, world) or play(rng, plan, world)
    if roll < 0.93:
        return noise(rng, plan)
    line = directive(rng, plan)
    plan.replay_next = line == "! restart" and rng.random() < 0.5
    return line


def actor(rng: random.Random, plan: Plan, world: World) -> str:
    """Usually the player the bot named last in the group (whose turn it likely is)."""
    recent = [m.payload.get("text") or m.payload.get("caption") or ""
              for m in world.messages.get(world.group(plan.group).id, [])[-4:] if m.from_bot]
    text = "\n".join(recent)
    named = sorted((text.rfind(h.capitalize()), h) for h in plan.players
                   if h.capitalize() in text)
    pick = rng.random()
    if named and pick < 0.6:
        return named[-1][1]
    if named and pick < 0.85:
        return rng.choice(named)[1]
    return rng.choice(plan.players + [plan.organiser])


def play(rng: random.Random, plan: Plan, world: World) -> str:
    who, g = actor(rng, plan, world), plan.group
    if plan.game == "cup":
        choice = rng.random()
        if choice < 0.55:
            return f"{who}@{g}: 🎲 {rng.randint(1, 6)}" if rng.random() < 0.8 else f"{who}@{g}: 🎲"
        if choice < 0.7:  # the HP battle's secret choice: its panel's button, or typed
            return (rng.random() < 0.5 and from_hand(rng, who, world)) \
                or f"{who}@dm: {rng.choice(('атака', 'защита', 'attack', 'hyökkäys'))}"
        return f"{who}@{g}: {rng.choice(CUP_WORDS)}"
    if plan.game in ("shanghai", "fincricket"):
        return f"{who}@{g}: {darts(rng)}"
    if plan.game == "armchair" and rng.random() < 0.8:
        if rng.random() < 0.6 and (card := from_hand(rng, who, world)):
            return card
        if rng.random() < 0.2 and (toss := card_button(rng, who, g, world)):
            return toss
        return f"{who}@{'dm' if rng.random() < 0.9 else g}: {card_move(rng)}"
    return f"{who}@{g}: {rng.choice(RESULTS)}"


def card_button(rng: random.Random, who: str, group: str, world: World) -> str | None:
    """A button of the group's newest score card (the toss, my cards, a declaration)."""
    cards = [m for m in with_buttons(world, world.group(group).id, 20)
             if "🏏" in (m.payload.get("text") or "")]
    if not cards:
        return None
    return f"{who}@{group}: [{rng.choice(buttons(cards[-1]))['text']}]"


def from_hand(rng: random.Random, who: str, world: World) -> str | None:
    """A button of ``who``'s newest private panel (a card of the hand, a swap, a keep, the
    HP battle's attack or defence), pressed, or typed as its label: a card typed at random
    is rarely in the hand, so without these the card game is mostly refused, not played."""
    labels = panel_labels(world, who)
    if not labels:
        return None
    label = rng.choice(labels)
    return f"{who}@dm: [{label}]" if rng.random() < 0.7 else f"{who}@dm: {label}"


def panel_labels(world: World, who: str) -> list[str]:
    """The buttons' labels of ``who``'s newest private panel (none: no panel, or no such
    user yet)."""
    user = world.users.get(who)
    panels = [message for message in with_buttons(world, user.id, 10) if callbacks(message)
              ] if user else []
    return [button["text"] for button in callbacks(panels[-1])] if panels else []


def callbacks(message: StoredMessage) -> list[dict]:
    """A message's buttons that call the bot back (a private panel's choices: a link is no
    choice)."""
    return [button for button in buttons(message) if "callback_data" in button]


def card_move(rng: random.Random) -> str:
    """An armchair move typed in the DM: a card in any form, an exchange, /hand."""
    pick = rng.random()
    if pick < 0.15:
        return rng.choice(("/hand", "keep", "оставить", "swap б3 п2", "обмен б1 б2 б3",
                           "swap bat 12", "declare"))
    suit = rng.choice(("bat", "BALL", "stumps", "gloves", "pads", "б", "м", "с", "п", "щ",
                       "бита ", "maila ", "x"))
    return f"{suit}{rng.choice(('', ' ', '-'))}{rng.randint(0, 12)}"


RESULTS = ("/result 5:3", "/result 3:5", "/result win", "/result loss", "/result draw",
           "/confirm", "/confirm", "/result 1:0", "/result 7:7", "/match")


def darts(rng: random.Random) -> str:
    if rng.random() < 0.1:
        return rng.choice(("отмена", "undo", "конец", "end", "peru", "valmis", "/board"))
    count = rng.choice((1, 2, 3, 3, 3))
    return " ".join(dart(rng) for _ in range(count))


def dart(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.15:
        return rng.choice(("25", "50", "miss", "мимо", "MISS", "T25", "D0", "S21"))
    return f"{rng.choice('SDTСДТ')}{rng.randint(15, 20) if rng.random() < 0.8 else rng.randint(1, 20)}"


def press(rng: random.Random, plan: Plan, world: World) -> str | None:
    """A button of one of the bot's recent messages: by label, on a given message, or forged."""
    who = actor(rng, plan, world)
    chats = [(world.group(plan.group).id, plan.group)]
    if who in world.users:
        chats.append((world.users[who].id, "dm"))
    chat_id, place = rng.choice(chats)
    boards = with_buttons(world, chat_id, 40)
    if not boards:
        return None
    message = boards[-1] if rng.random() < 0.6 else rng.choice(boards[-4:])
    button = rng.choice(buttons(message))
    how = rng.random()
    if how < 0.75:
        return f"{who}@{place}: [{button['text']}]"
    if how < 0.9:
        return f"{who}@{place}: [{button['text']}]#{message.message_id}"
    data = button.get("callback_data") or "x"
    forged = re.sub(r"\d+", lambda d: str(int(d.group()) + rng.choice((-1, 1, 1000, 10 ** 20))),
                    data)
    return f"{who}@{place}: callback {rng.choice((forged, data + ':x', 'z' * 80, ''))}"


def with_buttons(world: World, chat_id: int, last: int) -> list[StoredMessage]:
    """The bot's messages with buttons the sandbox can press (:func:`buttons`) among a
    chat's ``last`` messages, oldest first."""
    return [m for m in world.messages.get(chat_id, [])[-last:] if m.from_bot and buttons(m)]


def buttons(message: StoredMessage) -> list[dict]:
    """A message's buttons the sandbox can press: a callback, or a link that opens the bot's
    chat; not the one that adds the bot to a group (Telegram's group picker)."""
    rows = (message.payload.get("reply_markup") or {}).get("inline_keyboard", [])
    return [key for row in rows for key in row
            if "callback_data" in key or "startgroup=" not in key.get("url", "")]


def noise(rng: random.Random, plan: Plan) -> str:
    """Any command of the README with valid or odd arguments, photos, stray dice, chatter —
    in the group, a topic of it, another group or the DM."""
    who = rng.choice(plan.players + [plan.organiser] * 2)
    place = rng.choice((plan.group, plan.group, "dm", f"g{rng.randint(0, 3)}",
                        f"{plan.group}/{rng.randint(1, 3)}"))
    kind = rng.random()
    if kind < 0.6:
        command = rng.choice(COMMANDS)
        prefix = rng.choice(("", "", "", "#1 ", "#2 ", "#x "))
        return f"{who}@{place}: {command} {prefix}{argument(rng, plan)}".rstrip()
    if kind < 0.7:
        return f"{who}@{place}: photo: {rng.choice(WEIRD[:12])}"
    if kind < 0.85:
        emoji = rng.choice(("🎲", "🎯", "🏀", "⚽", "🎰", "🎳"))
        return f"{who}@{place}: {rng.choice(('fwd ', '', ''))}{emoji} {rng.randint(0, 7)}"
    return f"{who}@{place}: {rng.choice(WEIRD)}"


def argument(rng: random.Random, plan: Plan) -> str:
    handle = rng.choice(plan.players)
    return rng.choice((
        "", f"@{handle}", f"@{handle} {name(handle)}", f"@{handle} @{rng.choice(plan.players)} 5:3"
        " reason", f"@{handle} reason", "5:3", "+:-", "win", "2026-12-01 19:00 Europe/Moscow",
        "01.12.2026 19:00 +03:00", "on", "off", "en", "fi", "ru", "cup", "close", "1 1 T20 wrong",
        "1.1 2 S20 S20 S20 fix", "1 @" + handle + " reason", "max_players=2", "legs=4",
        "qualifiers=3", rng.choice(WEIRD), f"{plan.game} Title " + rng.choice(WEIRD),
        "title=" + rng.choice(WEIRD), "legs=3 title=Renamed"))


def directive(rng: random.Random, plan: Plan) -> str:
    return rng.choice((
        "! restart", "! replay", f"! block {rng.choice(plan.players)}",
        f"! unblock {rng.choice(plan.players)}", f"! advance {rng.choice(('30s', '5m', '1h', '1d'))}",
        f"! admin bot@{plan.group}", f"! admin {rng.choice(plan.players)}@{plan.group}",
        f"! migrate {plan.group}", f"! migrate {plan.group} unseen",
        f"! remove bot@{plan.group}", f"! anonymous {plan.organiser}@{plan.group}",
        f"! menu {rng.choice(plan.players)}@{rng.choice((plan.group, 'dm'))}"))
