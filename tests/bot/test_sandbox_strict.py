"""The sandbox refuses what Telegram refuses: too long, bad HTML, oversized callback data,
a DM to someone who never started the bot — the bot gets Telegram's error and the transcript
shows ``!! error`` for the malformed ones."""

from __future__ import annotations

import pytest
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.methods import AnswerCallbackQuery, SendMessage, SendPhoto, SetMessageReaction
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    ReactionTypeEmoji,
)

from bot.sandbox import strict
from bot.sandbox.runner import Sandbox


@pytest.mark.parametrize(("html", "shown"), [
    ("<b>bold</b> &amp; <i>it</i>", "bold & it"),
    ('<a href="https://t.me/x">link</a> &lt;3 &#8364; &#x41;', "link <3 € A"),
    ("Tom & Jerry; &nbsp; stays", "Tom & Jerry; &nbsp; stays"),
    ('<span class="tg-spoiler">s</span><tg-spoiler>t</tg-spoiler>', "st"),
    ("<pre><code class=\"language-python\">x > 1</code></pre>", "x > 1"),
])
def test_html_telegram_accepts(html: str, shown: str) -> None:
    assert strict.parse_html(html) == shown


@pytest.mark.parametrize(("html", "error"), [
    ("line<br>next", 'Unsupported start tag "br" at byte offset 4'),
    ("a < b", 'Unsupported start tag "" at byte offset 2'),
    ("<b>open", 'Can\'t find end tag corresponding to start tag "b"'),
    ("<b><i>x</b></i>", 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'),
    ("x</b>", "Unexpected end tag at byte offset 1"),
    ("<span>x</span>", 'Tag "span" must have class "tg-spoiler"'),
    ("<b", "Unclosed start tag at byte offset 0"),
    ("ё<u", "Unclosed start tag at byte offset 2"),
])
def test_html_telegram_refuses(html: str, error: str) -> None:
    with pytest.raises(strict.Refused, match="can't parse entities") as refused:
        strict.parse_html(html)
    assert error in str(refused.value)


def test_limits() -> None:
    assert strict.message_text("я" * 4096, "HTML") == "я" * 4096
    with pytest.raises(strict.Refused, match="message is too long"):
        strict.message_text("я" * 4097, None)
    with pytest.raises(strict.Refused, match="message is too long"):
        strict.message_text("<b>" + "x" * 4097 + "</b>", "HTML")
    assert strict.message_text("<b>" + "x" * 4000 + "</b>", "HTML") == "x" * 4000
    with pytest.raises(strict.Refused, match="message text is empty"):
        strict.message_text("<b> </b>", "HTML")
    with pytest.raises(strict.Refused, match="message caption is too long"):
        strict.caption_text("c" * 1025, "HTML")
    strict.check_keyboard({"inline_keyboard": [[{"text": "ok", "callback_data": "x" * 64}]]})
    with pytest.raises(strict.Refused, match="BUTTON_DATA_INVALID"):
        strict.check_keyboard({"inline_keyboard": [[{"text": "ok", "callback_data": "я" * 33}]]})


@pytest.fixture
async def sandbox(tmp_path):
    output: list[str] = []
    box = Sandbox(seed=1, db_path=tmp_path / "s.sqlite3", emit=output.append,
                  out_dir=tmp_path / "out")
    await box.start()
    box.output = output
    yield box
    await box.close()


async def _past_the_sending_layer(bot, method):
    """Call the stand-in for Telegram directly: the bot's sending layer would split a long
    text or swallow an undeliverable DM before Telegram could refuse it."""
    return await bot.session.make_request(bot, method)


async def test_the_bot_gets_telegrams_error_and_the_transcript_shows_it(sandbox) -> None:
    await sandbox.line("alice@cup: hi")
    cup = sandbox.world.group("cup").id
    bot = sandbox.app.bot
    for method in (SendMessage(chat_id=cup, text="x" * 4097),
                   SendMessage(chat_id=cup, text="a<br>b"),
                   SendPhoto(chat_id=cup, photo=BufferedInputFile(b"png", "p.png"),
                             caption="c" * 1025),
                   SendMessage(chat_id=cup, text="ok", reply_markup=InlineKeyboardMarkup(
                       inline_keyboard=[[InlineKeyboardButton(text="b",
                                                              callback_data="d" * 65)]]))):
        with pytest.raises(TelegramBadRequest):
            await _past_the_sending_layer(bot, method)
    assert sandbox.output == [
        "!! error: Telegram refuses sendMessage to cup: message is too long",
        "!! error: Telegram refuses sendMessage to cup: can't parse entities: "
        'Unsupported start tag "br" at byte offset 1',
        "!! error: Telegram refuses sendPhoto to cup: message caption is too long",
        "!! error: Telegram refuses sendMessage to cup: BUTTON_DATA_INVALID"]
    assert sandbox.errors == 4
    await sandbox.line("alice@cup: [b]")
    assert sandbox.output[-1] == "!! error: no button [b] in that chat"


async def test_a_dm_to_a_user_who_never_started_the_bot_is_forbidden(sandbox) -> None:
    await sandbox.line("alice@cup: hi")
    hello = SendMessage(chat_id=sandbox.world.user("alice").id, text="hello")
    with pytest.raises(TelegramForbiddenError, match="can't initiate conversation"):
        await _past_the_sending_layer(sandbox.app.bot, hello)
    await sandbox.line("alice@dm: /start")
    await sandbox.line("! block alice")
    with pytest.raises(TelegramForbiddenError, match="blocked"):
        await _past_the_sending_layer(sandbox.app.bot, hello)
    printed = len(sandbox.output)
    await sandbox.line("alice@dm: /help")  # writing to a bot unblocks it
    assert sandbox.output[printed].startswith("→ alice@dm: ")
    assert sandbox.errors == 0


async def test_forum_topics(sandbox) -> None:
    await sandbox.line("alice@cup/7: /help")
    bot, cup = sandbox.app.bot, sandbox.world.group("cup")
    assert cup.is_forum and sandbox.output[0].startswith("→ cup/7: ")
    with pytest.raises(TelegramBadRequest, match="not enough rights"):
        await bot.create_forum_topic(cup.id, "Final")
    await sandbox.line("! admin bot@cup")
    topic = await bot.create_forum_topic(cup.id, "Final")
    sent = await bot.send_message(cup.id, "<b>in</b> the topic", message_thread_id=topic.message_thread_id,
                                  reply_markup=InlineKeyboardMarkup(inline_keyboard=[[
                                      InlineKeyboardButton(text="Go", callback_data="x")]]))
    await bot.edit_message_text("edited", chat_id=cup.id, message_id=sent.message_id)
    with pytest.raises(TelegramBadRequest, match="thread not found"):
        await bot.send_message(cup.id, "lost", message_thread_id=99)
    thread = topic.message_thread_id
    assert thread > 7
    assert sandbox.output[-4:] == [f'⊕ cup/{thread}: topic "Final"',
                                   f"→ cup/{thread}: in the topic", "  [Go]",
                                   f"✎ cup/{thread}#{sent.message_id}: edited"]


async def test_press_a_button_on_a_given_message_and_edit_a_photo(sandbox) -> None:
    await sandbox.line("alice@cup: hi")
    cup, bot = sandbox.world.group("cup").id, sandbox.app.bot
    keyboard = InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text="Go", callback_data="nothing:here")]])
    first = await bot.send_message(cup, "first", reply_markup=keyboard)
    await bot.send_message(cup, "second", reply_markup=keyboard)
    photo = await bot.send_photo(cup, BufferedInputFile(b"png", "p.png"), caption="old")
    await bot.edit_message_media(InputMediaPhoto(media=BufferedInputFile(b"new", "n.png"),
                                                 caption="<i>new</i>"),
                                 chat_id=cup, message_id=photo.message_id)
    assert sandbox.output[-1] == f'✎ cup#{photo.message_id}: photo "new"'
    with pytest.raises(TelegramBadRequest, match="no text in the message"):
        await bot.edit_message_text("text", chat_id=cup, message_id=photo.message_id)
    assert sandbox.failures[-1].kind == "refused"
    sandbox.failures.clear()
    [saved] = sandbox.out_dir.glob("*-n.png")
    assert saved.read_bytes() == b"new"
    sandbox.world.pending_callbacks.clear()
    await sandbox.line(f"bob@cup: [Go]#{first.message_id}")
    assert sandbox.app is not None and sandbox.errors == 1
    await sandbox.line(f"bob@cup: [Go]#{photo.message_id}")
    assert sandbox.output[-1] == f"!! error: no button [Go] on message {photo.message_id}"


async def test_a_user_cannot_send_more_than_telegram_allows(sandbox) -> None:
    await sandbox.line("alice@cup: " + "я" * 4097)
    await sandbox.line("alice@cup: photo: " + "c" * 1025)
    assert sandbox.output == [
        "!! error: Telegram lets a user send at most 4096 characters in a message",
        "!! error: Telegram lets a user write at most 1024 characters in a caption"]
    assert [f.kind for f in sandbox.failures] == ["line", "line"]


async def test_a_toast_over_200_characters_is_refused(sandbox) -> None:
    await sandbox.line("alice@cup: hi")
    with pytest.raises(TelegramBadRequest, match="MESSAGE_TOO_LONG"):
        await _past_the_sending_layer(sandbox.app.bot,
                                      AnswerCallbackQuery(callback_query_id="1", text="t" * 201))
    assert sandbox.output == ["!! error: Telegram refuses answerCallbackQuery: MESSAGE_TOO_LONG"]


async def test_a_reaction_is_shown_on_its_message_and_only_telegrams_emoji_are_taken(
        sandbox) -> None:
    await sandbox.line("alice@cup: hi")
    cup = sandbox.world.group("cup").id
    hello = sandbox.world.messages[cup][-1].message_id

    def reaction(emoji: str, message_id: int = hello) -> SetMessageReaction:
        return SetMessageReaction(chat_id=cup, message_id=message_id,
                                  reaction=[ReactionTypeEmoji(emoji=emoji)])

    assert await _past_the_sending_layer(sandbox.app.bot, reaction("👍")) is True
    for refused in (reaction("✅"), reaction("👍", message_id=hello + 50)):
        with pytest.raises(TelegramBadRequest):
            await _past_the_sending_layer(sandbox.app.bot, refused)
    assert sandbox.output == [
        f"♡ cup#{hello}: 👍", "!! error: Telegram refuses setMessageReaction to cup:"
        " REACTION_INVALID"]
