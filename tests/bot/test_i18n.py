"""Every text the code asks for exists in the Russian and English catalogs, and the Finnish
catalog covers FinCricket; parameters are HTML-escaped."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot import i18n
from bot.i18n import Markup, Plural, Translator, catalog, mid_sentence, opening

ROOT = Path(__file__).resolve().parents[2]
_LITERAL_KEY = re.compile(r"""\btr\(\s*"([a-z_]+\.[a-z_.]+)\"""")


def _forms(text: str | Plural) -> list[str]:
    return list(text) if isinstance(text, Plural) else [text]


def _keys_in_code() -> set[str]:
    keys = set()
    for path in (ROOT / "bot").rglob("*.py"):
        keys.update(_LITERAL_KEY.findall(path.read_text(encoding="utf-8")))
    return keys


def test_code_keys_exist_in_ru_and_en() -> None:
    keys = _keys_in_code()
    assert len(keys) > 50
    for language in ("ru", "en"):
        missing = keys - set(catalog(language))
        assert not missing, (language, sorted(missing))


def test_catalogs_have_the_same_keys_and_placeholders() -> None:
    ru, en, fi = catalog("ru"), catalog("en"), catalog("fi")
    assert set(ru) == set(en)
    assert set(fi) <= set(en)
    placeholders = re.compile(r"\{(\w+)\}")
    for key in en:
        wanted = {name for form in _forms(en[key]) for name in placeholders.findall(form)}
        for other in (ru, fi):
            if key in other:
                assert isinstance(other[key], Plural) == isinstance(en[key], Plural), key
                for form in _forms(other[key]):
                    assert set(placeholders.findall(form)) <= wanted, key
                assert {name for form in _forms(other[key])
                        for name in placeholders.findall(form)} == wanted, key


def test_plural_entries_have_every_form_of_their_language() -> None:
    for language, forms in (("ru", 3), ("en", 2), ("fi", 2)):
        for key, text in catalog(language).items():
            if isinstance(text, Plural):
                assert len(text) == forms and all(text), (language, key)


def test_plural_forms_follow_each_languages_rule() -> None:
    ru, en, fi = Translator("ru"), Translator("en"), Translator("fi")
    said = {n: ru("formats.n_players", count=n) for n in (1, 2, 5, 11, 21, 22, 25)}
    assert said == {1: "1 игрок", 2: "2 игрока", 5: "5 игроков", 11: "11 игроков",
                    21: "21 игрок", 22: "22 игрока", 25: "25 игроков"}
    assert [en("formats.n_players", count=n) for n in (1, 2)] == ["1 player", "2 players"]
    assert [fi("formats.n_players", count=n) for n in (1, 3)] == ["1 pelaaja", "3 pelaajaa"]
    # Half a point takes the second form in every language.
    assert en("formats.n_points", count=1.5) == "1.5 pts"
    assert en("formats.n_points", count=1) == "1 pt"
    assert ru("formats.n_points", count=1.5) == "1,5 очка"  # the decimal comma


def test_a_plural_entry_names_the_number_that_chooses_its_form() -> None:
    for language in ("ru", "en", "fi"):
        for key, text in catalog(language).items():
            if isinstance(text, Plural):
                assert all("{" + text.by + "}" in form for form in text), (language, key)
    with pytest.raises(KeyError):
        Translator("en")("formats.n_players")
    assert Translator("en")("registration.full", title="T", max=1).endswith("1 entrant.")


def _own_keys(language: str) -> set[str]:
    """The keys of the bot's own catalogs (a test's game may add catalogs of its own)."""
    keys = set()
    for path in (ROOT / "bot" / "locales" / language).glob("*.po"):
        with path.open("rb") as handle:
            keys |= {m.id[0] if m.pluralizable else m.id
                     for m in read_po(handle, locale=language) if m.id}
    return keys


def test_finnish_is_complete() -> None:
    assert _own_keys("fi") == _own_keys("en") == _own_keys("ru")


def test_finnish_has_the_fincricket_texts() -> None:
    assert {k for k in catalog("en") if "fincricket" in k} <= set(catalog("fi"))


def test_parameters_are_escaped_unless_markup() -> None:
    tr = Translator("en")
    assert "&lt;b&gt;" in tr("try.success", name="<b>")
    assert "<b>" in tr("try.success", name=Markup("<b>"))
    assert tr("try.success", name="Ann & Bob") == "Ann &amp; Bob: Success ✅"
    assert tr("try.success", name="Ann") == "Ann: Success ✅"
    assert tr("try.success", name=Path("<a>")) == "&lt;a&gt;: Success ✅"  # not a str
    assert tr("try.success", name=7) == "7: Success ✅"


_EXTRA = """msgid "extra.hello"
msgstr "Hello, {name}"

msgid "extra.things"
msgid_plural "n"
msgstr[0] "{n} thing"
msgstr[1] "{n} things"
"""


@pytest.fixture
def no_extra_catalogs(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(i18n, "_extra_folders", [])
    yield
    catalog.cache_clear()
    i18n.texts.cache_clear()


def test_a_catalog_added_later_is_read_by_a_translator_made_before(
        tmp_path: Path, no_extra_catalogs: None) -> None:
    """A language's texts, the fallback's under them, are kept as one table: adding a
    catalog remakes it; a text found only in the fallback takes the fallback's plural rule."""
    tr = Translator("ru")
    assert not tr.has("extra.hello")
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "extra.po").write_text(_EXTRA, encoding="utf-8")
    i18n.add_catalogs(tmp_path)
    assert tr.has("extra.hello")
    assert tr("extra.hello", name="<A>") == "Hello, &lt;A&gt;"
    assert [tr("extra.things", n=n) for n in (1, 21)] == ["1 thing", "21 things"]


def test_plain_text_is_the_same_words_unescaped() -> None:
    tr = Translator("en")
    assert tr.plain("try.success", name="<b>&") == "<b>&: Success ✅"


def test_every_text_uses_only_tags_telegram_knows() -> None:
    """A stray ``<match>`` in a usage line makes Telegram refuse the whole message."""
    allowed = {"b", "i", "u", "s", "code", "pre", "a", "tg-spoiler", "blockquote"}
    for language in ("ru", "en", "fi"):
        for key, text in catalog(language).items():
            tags = {tag for form in _forms(text) for tag in re.findall(r"</?([^\s>/]+)", form)}
            assert tags <= allowed, (language, key, tags - allowed)


@pytest.mark.parametrize("path", sorted((ROOT / "bot" / "locales").rglob("*.po")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_catalog_names_each_text_once(path: Path) -> None:
    """A second entry of a key silently replaces the first: a new text added under a key
    that already exists changes that text everywhere it is used."""
    keys = re.findall(r'^msgid "([^"]+)"$', path.read_text(encoding="utf-8"), re.MULTILINE)
    assert [key for key in set(keys) if keys.count(key) > 1] == []


def test_a_playoff_round_begins_a_message_with_a_capital() -> None:
    """Russian names a round in lower case mid-sentence («первый раунд — финал «HP»»); a
    message that begins with it («⚔️ Финал «HP»: …») gets a capital, whatever the language."""
    ru = Translator("ru")
    round_name = ru("cup.round_name", round=ru("cup.round.2"), format=ru("cup.format.hp"))
    assert round_name.startswith("финал")
    assert ru("cup.hp_start", title=opening(round_name), a="A", b="B", hp=20).startswith(
        "⚔️ Финал «HP»: A — B")
    assert opening("1/2 финала") == "1/2 финала" and opening("") == ""


def test_a_stage_in_parentheses_reads_in_lower_case() -> None:
    """A round or bracket stage named inside a sentence, in parentheses, is not capitalised
    («Результат внесён организатором (тур 1)»); an abbreviation keeps its capitals."""
    ru = Translator("ru")
    said = ru("formats.set_by_organiser", stage=mid_sentence(ru("formats.match.round", round=1)),
              result="A — B 3:1", reason="x")
    assert "(тур 1)" in said
    assert mid_sentence("Semi-final") == "semi-final" and mid_sentence("GF") == "GF"
    assert mid_sentence("1/4 финала") == "1/4 финала" and mid_sentence("") == ""


@pytest.mark.parametrize("language", ["ru", "en", "fi"])
def test_the_third_place_match_is_named_as_a_round_is(language: str) -> None:
    """The 3rd-place match is said in brackets mid-sentence as a round is («(1/2 финала
    «HP»)»): its name has no brackets of its own and, where a round's name is in lower case,
    neither is it («(матч за 3-е место «HP»)», not «(Матч за 3-е место («HP»))»)."""
    tr = Translator(language)
    final = tr("cup.round_name", round=tr("cup.round.2"), format=tr("cup.format.hp"))
    names = [tr("cup.third_title", format=tr("cup.format.hp")), tr("cup.third_title_group"),
             tr("cup.third_stage")]
    assert [name for name in names if "(" in name
            or name[0].isalpha() and name[0].islower() != final[0].islower()] == []
    assert names[0].endswith(" " + tr("cup.format.hp"))


# Where Russian would decline a name: a verb's object («побеждает Анну»), a noun's or a
# preposition's («победа Анны», «у Анны»).
_NAME = (r"\{(?:name|names|winner|loser|a|b|opponent|other|whose|first|organiser|player"
         r"|new|old)\}")
_OBJECT_VERBS = ("побеждает", "вызывает", "заменяет")
_DECLINING = ("победа", "выбор", "заявка", "вместо", "игрока", "игроку", "у", "от", "для",
               "с", "ход", "вызов", "подходе")


def test_a_russian_text_names_a_player_only_where_the_name_stays_as_written() -> None:
    """A name is written in the nominative (Вера_Смирнова: the bot cannot decline it), so a
    Russian text puts it as a subject, after a colon or a dash, or in a list, never as the
    object of a verb or after a noun or a preposition («Вера_Смирнова побеждает
    Анна_Петрова»: who won?)."""
    declined = re.compile(rf"{_NAME} (?:{'|'.join(_OBJECT_VERBS)}) {_NAME}"
                          rf"|(?<!\w)(?:{'|'.join(_DECLINING)}) {_NAME}", re.IGNORECASE)
    wrong = {key: form for key, text in catalog("ru").items() for form in _forms(text)
             if declined.search(form)}
    assert wrong == {}


def test_a_russian_text_gives_a_named_player_no_gendered_word() -> None:
    """Whether a player is a man or a woman is not known: a Russian text that names a
    player (or their opponent) has no gendered verb or short adjective for them
    («Подтвердить должен Frank», «ваш соперник покинул турнир», «{name} делает /try:
    удачно — играем его выбор»)."""
    gendered = re.compile(rf"\b(?:должен|должна|покинул|выбыл|снялся|его выбор)\b"
                          rf"|{_NAME} (?:не )?[а-яё]+л(?:ся)?\b")
    named = re.compile(rf"{_NAME}|соперник|игрок")
    wrong = {key: form for key, text in catalog("ru").items() for form in _forms(text)
             if named.search(form) and gendered.search(form)}
    assert wrong == {}


def test_a_russian_text_gives_the_organiser_or_a_player_no_gendered_past_verb() -> None:
    """The organiser and a player are persons of unknown gender: a Russian text puts no
    masculine past verb next to them («Организатор записал результат», «формат выбрал
    организатор», «Соперник уже сообщил результат»), but says what was done
    («Результат записан организатором») or uses the present tense."""
    person, verb = r"(?:организатор|соперник|игрок)", r"[а-яё]+л(?:ся)?"
    gendered = re.compile(rf"\b{person} (?:уже |не )?{verb}\b|\b{verb} {person}\b",
                          re.IGNORECASE)
    wrong = {key: form for key, text in catalog("ru").items() for form in _forms(text)
             if gendered.search(form)}
    assert wrong == {}


def test_a_russian_text_refers_to_a_player_without_a_gendered_pronoun() -> None:
    """A player's gender is not known: a Russian text does not call them «он» («попросите
    его написать», «чтобы я его знал», «по его @username», «его матчи», «видны только ему»)
    but names the player again or says it otherwise («попросите игрока написать», «Я знаю
    только тех, кто…»). «его» for a match, a result or a tournament stays."""
    gendered = re.compile(r"\b(?:попросите|спросите|вызовите) его\b|\bему\b"
                          r"|\bего (?:знал|знаю|знает|@username|матч|карт|ход|мест|соперник)",
                          re.IGNORECASE)
    wrong = {key: form for key, text in catalog("ru").items() for form in _forms(text)
             if gendered.search(form)}
    assert wrong == {}
