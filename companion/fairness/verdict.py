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
from dataclasses import dataclass
from typing import Protocol

from companion.fairness.change import ALPHA_CHANGE, ChangeAlarm, describe
from companion.fairness.sequential import (
    ALPHA_TESTS,
    FIRST_LOOK,
    STAGES,
    TARGET_BIAS,
    SequentialPower,
    SequentialTests,
    StagePower,
)

NOT_ENOUGH = "not enough data yet"
NO_BIAS = "no colour bias detected"
BIAS = "colour bias detected"
VERDICTS = (NOT_ENOUGH, NO_BIAS, BIAS)
KIND_WORDS = {"p_new": "new pieces", "p_held": "held pieces", "both": "both"}
#: Each stage's question, as it reads after "in" ("No colour bias detected in ...").
QUESTIONS = {
    "new_pieces": "how often tossed-in keshis stay inside",
    "held_pieces": "how often keshis already inside stay stuck",
}
#: Each stage's name at the start of a sentence ("...: not enough data yet").
TOPICS = {
    "new_pieces": "Tossed-in keshis staying inside",
    "held_pieces": "Stickiness of keshis already inside",
}
#: Which stages a test flag concerns, by the rates it names (``sequential._describe``).
FLAG_STAGES = {
    "new pieces": ("new_pieces",),
    "held pieces": ("held_pieces",),
    "new and held pieces": ("new_pieces", "held_pieces"),
}


class LayerResult(Protocol):
    """What the verdict reads of a layer's report."""

    @property
    def power(self) -> SequentialPower: ...

    @property
    def sequential(self) -> SequentialTests: ...

    @property
    def changes(self) -> list[ChangeAlarm]: ...


@dataclass(frozen=True)
class StageVerdict:
    """One question's answer: ``verdict`` (one of ``VERDICTS``) and the sentence people read.

    ``layer``, ``power`` and ``check`` are the power quoted (at the latest check of that layer);
    ``promised_tosses`` / ``tosses_needed`` the check where it should reach 80 % and how far that is;
    ``flagged`` the colours a flag concerning this question names.
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


@dataclass(frozen=True)
class Verdict:
    """The overall verdict, its headline and detail in player words, and the per-question answers."""

    verdict: str
    headline: str
    detail: str
    stages: dict[str, StageVerdict]


def verdict(tosses: int, layers: Mapping[str, LayerResult]) -> Verdict:
    """The verdict of a report of ``tosses`` tosses with these layers' tests, alarms and power."""
    flagged = _flagged_by_stage(layers)
    stages = {name: _stage(name, kinds, layers, flagged[name]) for name, kinds in STAGES.items()}
    sentences = " ".join(s.sentence for s in stages.values())
    if tosses == 0:
        return Verdict(NOT_ENOUGH, "Not enough data yet: no tosses recorded.", "No tosses recorded yet.", stages)
    findings = []
    for name, layer in layers.items():
        for colour, look_tosses in layer.sequential.flagged_at.items():
            score = layer.sequential.flag(colour)
            what = f"{score.direction} in {score.rates}" if score and score.direction else "differs"
            findings.append(f"{colour} ({what}, {name}, at the look after {look_tosses} tosses)")
        findings += [f"{describe(alarm)} on {name}" for alarm in layer.changes]
    if findings:
        return Verdict(BIAS, f"Colour bias detected. {sentences}", (
            f"Release depends on colour: {'; '.join(findings)}. A fair tower raises such a flag in at most "
            f"{(ALPHA_TESTS + ALPHA_CHANGE) * 100:.0f} % of logs, however often the report is read."
        ), stages)
    bias = f"a colour {TARGET_BIAS * 100:.0f} points stickier (in new pieces, held pieces or both)"
    if all(s.verdict == NO_BIAS for s in stages.values()):
        powered = dict.fromkeys(s.layer for s in stages.values() if s.layer)
        return Verdict(NO_BIAS, sentences, (
            f"No colour differs; {bias} would have been caught with at least 80 % probability on "
            f"{' and '.join(powered)}."
        ), stages)
    detail = " ".join(_power_sentence(name, layer.power, bias) for name, layer in layers.items())
    return Verdict(NOT_ENOUGH, sentences, detail, stages)


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
    where = f" on {layer_name}" if layer_name and len(layers) > 1 else ""

    def answer(verdict: str, sentence: str) -> StageVerdict:
        return StageVerdict(
            name, kinds, verdict, sentence, layer_name,
            None if stage is None else stage.power_now, check,
            None if stage is None else stage.promised_tosses,
            None if stage is None else stage.tosses_needed,
            None if stage is None else stage.power_at_promise, flagged,
        )

    if flagged:
        return answer(BIAS, f"Colour bias detected in {QUESTIONS[name]}: {', '.join(flagged)}.")
    if stage is not None and stage.enough and check is not None:
        return answer(NO_BIAS, (
            f"No colour bias detected in {QUESTIONS[name]}{where} (a {TARGET_BIAS * 100:.0f}-point bias would "
            f"have been caught with {format_percent(stage.power_now)} at the check after {check:,} tosses)."
        ))
    if stage is None or not layers:
        more = "no tosses recorded yet"
    elif stage.promised_tosses is None or stage.tosses_needed is None:
        more = "many more tosses needed"
    elif check is None:
        more = (f"about {stage.tosses_needed:,} more tosses (the first check is after {FIRST_LOOK:,}; a "
                f"{TARGET_BIAS * 100:.0f}-point bias should be caught by the check after "
                f"{stage.promised_tosses:,}{where})")
    else:
        more = (f"about {stage.tosses_needed:,} more tosses (a {TARGET_BIAS * 100:.0f}-point bias would be "
                f"caught with {format_percent(stage.power_now)} at the latest check, after {check:,}, and "
                f"about {format_percent(stage.power_at_promise)} at the check after {stage.promised_tosses:,}{where})")
    return answer(NOT_ENOUGH, f"{TOPICS[name]}: not enough data yet — {more}.")


def format_percent(p: float | None) -> str:
    """A chance for people: "44 %", "over 99 %" (never a rounded-up certainty), or a dash."""
    if p is None:
        return "–"
    return "over 99 %" if p > 0.99 else f"{p:.0%}".replace("%", " %")


def _best_layer(powers: Mapping[str, StagePower]) -> str | None:
    """The layer to quote for a stage: the most powerful one already powered, else the one closest to
    its promised check (None without layers)."""
    if not powers:
        return None
    powered = [name for name, p in powers.items() if p.enough]
    if powered:
        return max(powered, key=lambda name: powers[name].power_now)
    return min(powers, key=lambda name: (powers[name].tosses_needed is None, powers[name].tosses_needed or 0))


def _power_sentence(name: str, p: SequentialPower, bias: str) -> str:
    """How likely the layer's latest look was to catch ``bias``, and how many more tosses until a look
    where that chance reaches the target (with the chance expected there), in one sentence."""
    weakest = min(p.power_by_kind, key=lambda kind: p.power_by_kind[kind])
    now = (f"{p.power_now:.0%} chance at the latest check ({p.latest_look:,} tosses)" if p.latest_look
           else f"{p.power_now:.0%} chance so far (the first check is at {FIRST_LOOK:,} tosses)")
    if p.promised_tosses is None or p.power_at_promise is None:
        more = "many more tosses needed"
    else:
        more = (f"about {p.tosses_needed:,} more tosses to the check at {p.promised_tosses:,}, where the chance "
                f"should be about {p.power_at_promise:.0%}")
    return (f"{name}: {now} to catch {bias} (weakest: {KIND_WORDS[weakest]}; needs {p.target_power:.0%}); "
            f"{more}.")
