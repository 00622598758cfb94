"""Players are never asked for a word of another language (issue 13): the 8-player Cup
transcript, its typed words and buttons put into English and Finnish, played in each
language; the bot's output names no typed Cup word of the other two languages
(``games/dice_cup/words.py``, ``docs/rules.md`` "Typed words in the Cup")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import Translator
from games.dice_cup.words import FORMS, LANGUAGES
from tests.bot.sandbox_run import run_script

SCRIPT = Path(__file__).resolve().parent.parent / "scenarios" / "cup_full_eight.txt"
_SHOWN = ("draw", "reroll", "attack", "defend", "check", "call", "raise", "fold", "drop")
BUTTONS = ("registration.button", "cup.format.group", "cup.format.drop", "cup.format.hp",
           "cup.format.betting")


def _foreign_words(language: str) -> set[str]:
    """The other languages' typed Cup words that are not also words of ``language``."""
    own = {form for forms in FORMS[language].values() for form in forms}
    return {form for other in LANGUAGES if other != language
            for meaning in _SHOWN for form in FORMS[other][meaning]} - own


def _translated(script: str, language: str) -> str:
    """The transcript with the Russian typed words and button labels in ``language``."""
    ru, to = Translator("ru"), Translator(language)
    for key in BUTTONS:
        script = script.replace(f"[{ru.plain(key)}]", f"[{to.plain(key)}]")
    for meaning in _SHOWN:
        script = re.sub(rf"(?m)(: ){re.escape(FORMS['ru'][meaning][0])}\b",
                        rf"\g<1>{FORMS[language][meaning][0]}", script)
    return script.replace("# seed:", f"# lang: {language}\n# seed:")


def test_the_english_script_types_english_words() -> None:
    script = _translated(SCRIPT.read_text(encoding="utf-8"), "en")
    assert "alice@cup: draw" in script and "убираю" not in script


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_cup_never_asks_for_a_word_of_another_language(tmp_path, language) -> None:
    script = _translated(SCRIPT.read_text(encoding="utf-8"), language)
    output = await run_script(tmp_path, script, seed=8, language=language)
    text = "\n".join(output).lower()
    assert not [line for line in output if line.startswith("!! error")]
    assert any("🏆" in line for line in output)  # played to the end in that language
    found = sorted(word for word in _foreign_words(language)
                   if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text))
    assert found == []
