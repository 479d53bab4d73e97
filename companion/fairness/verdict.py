"""The verdict, in stages: one answer per question a table asks of its tower, in player words.

The colour tests (``sequential``) and the change monitor decide whether a colour is flagged; the
power (``sequential.sequential_power``) decides when "no colour bias" may be said. The two questions
are answered at very different lengths (``sequential.STAGES``): *how often a tossed-in keshi stays
inside* (a 10-point bias in ``p_new``, or in both rates, is caught with 80 % after a few thousand
tosses) and *how often a keshi already inside stays stuck* (``p_held`` alone, learnt from the few
pieces the tower holds: several times longer). Each question gets its own answer:

* ``colour bias detected`` when a flag concerns it (a test flag whose rates are the new pieces, the
  held ones or both; a change-monitor alarm, which watches both rates together, concerns both);
* ``no colour bias detected`` once its power at the latest check reached 80 % on some layer (the
  sentence quotes that power and the check);
* ``not enough data yet`` otherwise, with about how many more tosses to the check where it should.

The overall verdict (``report.verdict``, one of ``VERDICTS``) is unchanged in meaning: any flag makes
it ``colour bias detected`` (the flags and their false-alarm budget are untouched by the stages);
``no colour bias detected`` needs both questions answered. The headline shown to people is the flag
sentence, or the two questions' sentences.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from companion.fairness.change import ALPHA_CHANGE, ChangeAlarm, describe_say
from companion.fairness.fill_level import FillEffect
from companion.fairness.sequential import (
    ALPHA_TESTS,
    FIRST_LOOK,
    STAGES,
    TARGET_BIAS,
    SequentialPower,
    SequentialTests,
    StagePower,
)
from companion.i18n import Msg, colour_name, render_words, word

NOT_ENOUGH = "not enough data yet"
NO_BIAS = "no colour bias detected"
BIAS = "colour bias detected"
VERDICTS = (NOT_ENOUGH, NO_BIAS, BIAS)
#: The kinds of bias, as the detail names the weakest one.
KIND_WORDS: dict[str, Msg] = {
    "p_new": word("kind", "new pieces"), "p_held": word("kind", "held pieces"), "both": word("kind", "both"),
}
#: Each stage's question, as it reads after "in" ("No colour bias detected in ...").
QUESTIONS: dict[str, Msg] = {
    "new_pieces": Msg("how often tossed-in keshis stay inside"),
    "held_pieces": Msg("how often keshis already inside stay stuck"),
}
#: Each stage's name at the start of a sentence ("...: not enough data yet").
TOPICS: dict[str, Msg] = {
    "new_pieces": Msg("Tossed-in keshis staying inside"),
    "held_pieces": Msg("Stickiness of keshis already inside"),
}
#: Which stages a test flag concerns, by the rates it names (``sequential._describe``).
FLAG_STAGES = {
    "new pieces": ("new_pieces",),
    "held pieces": ("held_pieces",),
    "new and held pieces": ("new_pieces", "held_pieces"),
}
#: The rates a flag names (``sequential._describe``), as people read them after "in".
RATE_WORDS: dict[str, Msg] = {
    "new pieces": word("rates", "new pieces"), "held pieces": word("rates", "held pieces"),
    "new and held pieces": word("rates", "new and held pieces"),
}
#: The way a flagged colour differs (``sequential._describe``, ``change.ChangeAlarm``), as people read it.
DIRECTION_WORDS: dict[str, Msg] = {"stickier": word("direction", "stickier"), "looser": word("direction", "looser")}
#: The size of the bias the power is quoted for, in points of release rate.
POINTS = round(TARGET_BIAS * 100)


class LayerResult(Protocol):
    """What the verdict reads of a layer's report."""

    @property
    def power(self) -> SequentialPower: ...

    @property
    def sequential(self) -> SequentialTests: ...

    @property
    def changes(self) -> list[ChangeAlarm]: ...

    @property
    def fill(self) -> FillEffect: ...


@dataclass(frozen=True)
class StageVerdict:
    """One question's answer: ``verdict`` (one of ``VERDICTS``) and the sentence people read.

    ``layer``, ``power`` and ``check`` are the power quoted and its check (the check that answered the
    question once it is answered, else the latest check of that layer);
    ``promised_tosses`` / ``tosses_needed`` the check where it should reach 80 % and how far that is;
    ``flagged`` the colours a flag concerning this question names. ``sentence`` is English (the CLI,
    the JSON); ``sentence_say`` the same sentence as a message the web page renders in its language.
    """

    stage: str
    kinds: tuple[str, ...]
    verdict: str
    sentence: str
    layer: str | None
    power: float | None
    check: int | None
    promised_tosses: int | None
    tosses_needed: int | None
    power_at_promise: float | None
    flagged: list[str]
    sentence_say: Msg = field(compare=False, repr=False)


@dataclass(frozen=True)
class Verdict:
    """The overall verdict, its headline and detail in player words, and the per-question answers.

    ``headline`` and ``detail`` are English (CLI, JSON, published state); ``detail_say`` is the detail
    as messages, one per sentence, for a page in the reader's language.
    """

    verdict: str
    headline: str
    detail: str
    stages: dict[str, StageVerdict]
    detail_say: tuple[Msg, ...] = field(compare=False, repr=False)


def english(messages: tuple[Msg, ...]) -> str:
    """Sentences given as messages, in English, one space apart."""
    return " ".join(message.english() for message in messages)


def verdict(tosses: int, layers: Mapping[str, LayerResult]) -> Verdict:
    """The verdict of a report of ``tosses`` tosses with these layers' tests, alarms and power."""
    flagged = _flagged_by_stage(layers)
    stages = {name: _stage(name, kinds, layers, flagged[name]) for name, kinds in STAGES.items()}
    sentences = " ".join(s.sentence for s in stages.values())

    tower = tuple(sentence for name, layer in layers.items() for sentence in fill_sentences(name, layer.fill))

    def decided(outcome: str, headline: str, *detail: Msg) -> Verdict:
        said = (*detail, *tower)
        return Verdict(outcome, headline, english(said), stages, said)

    if tosses == 0:
        return decided(NOT_ENOUGH, "Not enough data yet: no tosses recorded.", Msg("No tosses recorded yet."))
    findings: list[Msg] = []
    for name, layer in layers.items():
        for colour, look_tosses in layer.sequential.flagged_at.items():
            score = layer.sequential.flag(colour)
            if score and score.direction:
                findings.append(Msg("{colour} ({direction} in {rates}, {layer}, at the look after {tosses} tosses)",
                                    colour=colour_name(colour), direction=_word(DIRECTION_WORDS, score.direction),
                                    rates=_word(RATE_WORDS, score.rates), layer=name, tosses=look_tosses))
            else:
                findings.append(Msg("{colour} (differs, {layer}, at the look after {tosses} tosses)",
                                    colour=colour_name(colour), layer=name, tosses=look_tosses))
        findings += [Msg("{alarm} on {layer}", alarm=describe_say(alarm), layer=name) for alarm in layer.changes]
    if findings:
        return decided(BIAS, f"Colour bias detected. {sentences}", Msg(
            "Release depends on colour: {findings}. A fair tower raises such a flag in at most {percent} % of logs, "
            "however often the report is read.",
            findings=_joined(findings), percent=round((ALPHA_TESTS + ALPHA_CHANGE) * 100)))
    if all(s.verdict == NO_BIAS for s in stages.values()):
        powered = list(dict.fromkeys(s.layer for s in stages.values() if s.layer))
        return decided(NO_BIAS, sentences, Msg(
            "No colour differs; a colour {points} points stickier (in new pieces, held pieces or both) would have "
            "been caught with at least 80 % probability on {layers}.", points=POINTS, layers=_and(powered)))
    return decided(NOT_ENOUGH, sentences, *(_power_sentence(name, layer.power) for name, layer in layers.items()))


#: The fill level the load effect is described at ("... with 10 keshis inside").
FILL_EXAMPLE = 10


def fill_sentences(layer: str, fill: FillEffect) -> tuple[Msg, ...]:
    """How the layer's fill level moves release, as a property of the tower, and whether the
    fill-level model describes it (``fill_level``); nothing before there is an interval."""
    said: list[Msg] = []
    if fill.beta is not None and fill.interval is not None:
        low, high = fill.interval
        if low <= 0 <= high:
            said.append(Msg("{layer}: how full the tower is makes no clear difference to how often keshis fall out.",
                            layer=layer))
        else:
            cases = ((0, fill.beta), (FILL_EXAMPLE, fill.beta), (FILL_EXAMPLE, low), (FILL_EXAMPLE, high))
            empty, full, *ends = (round(100 * (fill.new_rate_at(pieces, beta) or 0.0)) for pieces, beta in cases)
            values = {"layer": layer, "empty": empty, "full": full, "pieces": FILL_EXAMPLE, "low": min(ends),
                      "high": max(ends)}
            said.append(Msg(
                "{layer}: the tower holds on harder the fuller it is: a tossed-in keshi falls out about {empty} % of "
                "the time in an empty tower and about {full} % with {pieces} keshis inside (likely range {low} to "
                "{high} %). The colour tests allow for this.", **values) if fill.beta < 0 else Msg(
                "{layer}: the tower lets go more easily the fuller it is: a tossed-in keshi falls out about {empty} % "
                "of the time in an empty tower and about {full} % with {pieces} keshis inside (likely range {low} to "
                "{high} %). The colour tests allow for this.", **values))
    if fill.misfit_at is not None:
        said.append(Msg(
            "{layer}: this tower's release does not follow a steady pattern in how full it is (seen at the check "
            "after {tosses} tosses), so its colour results are less certain than they read.",
            layer=layer, tosses=fill.misfit_at))
    return tuple(said)


def _word(words: Mapping[str, Msg], key: str | None) -> Msg | str:
    """The player word for ``key`` (a key without one is shown as it is)."""
    return words.get(key or "", key or "")


def _joined(findings: list[Msg]) -> Msg:
    """The findings one after the other, "; " between them."""
    if len(findings) == 1:
        return findings[0]
    return Msg("{first}; {rest}", first=findings[0], rest=_joined(findings[1:]))


def _and(names: list[str]) -> Msg | str:
    """"B1" or "B1 and B2" (layer names are the same in every language)."""
    if len(names) == 1:
        return names[0]
    return Msg("{first} and {second}", first=", ".join(names[:-1]), second=names[-1])


def _flagged_by_stage(layers: Mapping[str, LayerResult]) -> dict[str, list[str]]:
    """Per stage, the colours a flag concerns (test flags by the rates they name; change alarms: both)."""
    result: dict[str, list[str]] = {name: [] for name in STAGES}
    for layer in layers.values():
        for colour in layer.sequential.flagged_at:
            score = layer.sequential.flag(colour)
            for stage in FLAG_STAGES.get(score.rates if score and score.rates else "", tuple(STAGES)):
                result[stage].append(colour)
        for alarm in layer.changes:
            for stage in STAGES:
                result[stage].append(alarm.colour)
    return {stage: list(dict.fromkeys(colours)) for stage, colours in result.items()}


def _stage(name: str, kinds: tuple[str, ...], layers: Mapping[str, LayerResult], flagged: list[str]) -> StageVerdict:
    """One question's answer from the layers' power for it (the best-placed layer is quoted)."""
    powers = {layer_name: layer.power.stages[name] for layer_name, layer in layers.items()}
    layer_name = _best_layer(powers)
    stage = powers[layer_name] if layer_name else None
    check = layers[layer_name].power.latest_look if layer_name else None
    where = layer_name if layer_name and len(layers) > 1 else None

    def answer(verdict: str, sentence: Msg) -> StageVerdict:
        return StageVerdict(
            name, kinds, verdict, sentence.english(), layer_name,
            None if stage is None else stage.power_now,
            stage.answered_at if stage is not None and stage.enough and stage.answered_at else check,
            None if stage is None else stage.promised_tosses,
            None if stage is None else stage.tosses_needed,
            None if stage is None else stage.power_at_promise, flagged, sentence,
        )

    question = QUESTIONS[name]
    if flagged:
        return answer(BIAS, Msg("Colour bias detected in {question}: {colours}.", question=question,
                                colours=[colour_name(c) for c in flagged]))
    if stage is not None and stage.enough and (stage.answered_at or check) is not None:
        # an answer stays (``kept_word``): it quotes the check that gave it
        found = {"question": question, "points": POINTS, "power": percent_say(stage.power_now),
                 "check": stage.answered_at or check}
        if where:
            return answer(NO_BIAS, Msg(
                "No colour bias detected in {question} on {layer} (a {points}-point bias would have been caught "
                "with {power} at the check after {check:,} tosses).", layer=where, **found))
        return answer(NO_BIAS, Msg(
            "No colour bias detected in {question} (a {points}-point bias would have been caught with {power} at "
            "the check after {check:,} tosses).", **found))
    return answer(NOT_ENOUGH, Msg("{topic}: not enough data yet — {more}.", topic=TOPICS[name],
                                  more=_more(stage, check, where, bool(layers))))


def _more(stage: StagePower | None, check: int | None, where: str | None, any_layer: bool) -> Msg:
    """How far a question without its answer still is, in player words."""
    if stage is None or not any_layer:
        return Msg("no tosses recorded yet")
    if check is None:
        return Msg("the first check is after {first:,} tosses, {needed:,} from now", first=FIRST_LOOK,
                   needed=stage.tosses_needed if stage.tosses_needed is not None else FIRST_LOOK)
    if stage.promised_tosses is None or stage.tosses_needed is None:
        return Msg("many more tosses needed")
    on = Msg(" on {layer}", layer=where) if where else ""
    return Msg("about {needed:,} more tosses (a {points}-point bias would be caught with {now} at the latest check, "
               "after {check:,}, and about {then} at the check after {promised:,}{on})",
               needed=stage.tosses_needed, points=POINTS, now=percent_say(stage.power_now), check=check,
               then=percent_say(stage.power_at_promise), promised=stage.promised_tosses, on=on)


def format_percent(p: float | None) -> str:
    """A chance for people: "44 %", "over 99 %" (never a rounded-up certainty), or a dash."""
    return render_words(percent_say(p), "en")


def percent_say(p: float | None) -> Msg | str:
    """``format_percent`` for a message: "over 99 %" is words (a ``Msg``), a number or a dash is not."""
    if p is None:
        return "–"
    return Msg("over 99 %") if p > 0.99 else f"{p:.0%}".replace("%", " %")


def _best_layer(powers: Mapping[str, StagePower]) -> str | None:
    """The layer to quote for a stage: the most powerful one already powered, else the one closest to
    its promised check (None without layers)."""
    if not powers:
        return None
    powered = [name for name, p in powers.items() if p.enough]
    if powered:
        return max(powered, key=lambda name: powers[name].power_now)
    return min(powers, key=lambda name: (powers[name].tosses_needed is None, powers[name].tosses_needed or 0))


def _power_sentence(name: str, p: SequentialPower) -> Msg:
    """How likely the layer's latest look was to catch a colour ``POINTS`` points stickier, and how many
    more tosses until a look where that chance reaches the target (with the chance expected there)."""
    weakest = min(p.power_by_kind, key=lambda kind: p.power_by_kind[kind])
    now = (Msg("{power} chance at the latest check ({check:,} tosses)", power=f"{p.power_now:.0%}", check=p.latest_look)
           if p.latest_look else
           Msg("{power} chance so far (the first check is at {first:,} tosses)", power=f"{p.power_now:.0%}",
               first=FIRST_LOOK))
    if p.promised_tosses is None or p.power_at_promise is None:
        more = Msg("many more tosses needed")
    else:
        more = Msg("about {needed:,} more tosses to the check at {promised:,}, where the chance should be about "
                   "{power}", needed=p.tosses_needed, promised=p.promised_tosses, power=f"{p.power_at_promise:.0%}")
    return Msg("{layer}: {now} to catch a colour {points} points stickier (in new pieces, held pieces or both) "
               "(weakest: {weakest}; needs {target}); {more}.", layer=name, now=now, points=POINTS,
               weakest=KIND_WORDS[weakest], target=f"{p.target_power:.0%}", more=more)
