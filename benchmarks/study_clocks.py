"""Clock-reading studies' own released material, read in place: faces, photos and GPT-4o's replies.

github.com/aMa2210/LLM_analog_clocks ("data and scripts for analyzing the ability of multimodal
LLMs to read analog clocks") released, besides its generator scripts:

- faces: four sets of 150 PNGs named ``HH_MM_SS.png`` (12-hour; ``12`` for noon/midnight) —
  ``clock_distorted_2`` and ``clock_distorted_3`` (dials bent into blobs, thin hands),
  ``clock_distorted_circle_dataset`` (a melted "Dalí" dial with a thick black rim and bent
  numerals), ``clock_twisted_hands_dataset`` (a regular dial whose hands are curled lines);
- replies: Excel sheets of GPT-4o's answers to "What time is shown on the clock in the given
  image?" on those faces and on a plain matplotlib face set, each with the study's own
  extraction of the time from the reply (column ``extracted_answer``) next to the truth.

github.com/charigyang/itsabouttime ("It's About Time: Analog Clock Reading in the Wild",
Yang et al., ACCV 2022) released, in ``data/demo``, 17 frames of clocks in films (from "The
Clock" supercut, labelled in ``data/movies_final.csv`` with the hour and minute shown): real
photographs of real clocks, cropped to the clock.

Nothing is copied into this repository (neither states a licence for the data): the script reads
checkouts. ``replies`` checks ClockQA's reply parser against the study's extraction, reply
by reply, and scores GPT-4o with both; ``faces`` writes a labels CSV (and links) so that
``bench_clock_reader.py --images`` reads the faces.

    git clone https://github.com/aMa2210/LLM_analog_clocks /tmp/llmclk   # any way to get a checkout
    pip install -e ".[clockbench]"                                         # openpyxl, for the .xlsx sheets
    python benchmarks/study_clocks.py replies --repo /tmp/llmclk
    python benchmarks/study_clocks.py faces --repo /tmp/llmclk --out /tmp/llmclk_faces
    python benchmarks/bench_clock_reader.py --images /tmp/llmclk_faces --labels /tmp/llmclk_faces/labels.csv
    git clone https://github.com/charigyang/itsabouttime /tmp/itat
    python benchmarks/study_clocks.py movies --repo /tmp/itat --out /tmp/itat_frames
    python benchmarks/bench_clock_reader.py --images /tmp/itat_frames --labels /tmp/itat_frames/labels.csv
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from pathlib import Path

FACE_SETS = (
    "clock_distorted_2",
    "clock_distorted_3",
    "clock_distorted_circle_dataset",
    "clock_twisted_hands_dataset",
)
_NAME = re.compile(r"(\d{2})_(\d{2})_(\d{2})\.png")
_TIME = re.compile(r"\s*(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?\s*")


def _clock(text: object) -> tuple[int, int, int | None] | None:
    """``H:MM[:SS]`` (the sheets' truth and extraction columns) as (hour 1-12, minute, second)."""
    m = _TIME.fullmatch(str(text))
    if m is None:
        return None
    return (int(m[1]) % 12 or 12, int(m[2]), int(m[3]) if m[3] is not None else None)


def _rows(path: Path, first_only: bool = False) -> list[tuple[object, ...]]:
    """The rows of a workbook's first sheet (or only its header row); the workbook closed."""
    import openpyxl

    book = openpyxl.load_workbook(path, read_only=True)
    try:
        return list(
            book.worksheets[0].iter_rows(max_row=1 if first_only else None, values_only=True)
        )
    finally:
        book.close()


def _reply_columns(head: list[str]) -> tuple[int, int, int] | None:
    """(truth, reply, study's extraction) column numbers of a whole-clock reply sheet."""
    reply = next((head.index(c) for c in ("answer_raw", "answer-gpt") if c in head), None)
    if reply is None or "answer" not in head or "extracted_answer" not in head:
        return None
    return head.index("answer"), reply, head.index("extracted_answer")


def reply_sheets(repo: Path) -> list[Path]:
    """Every sheet with the truth, a whole-clock reply and the study's extraction of it."""
    return sorted(p for p in repo.rglob("*.xlsx") if _reply_columns(_header(p)) is not None)


def _header(path: Path) -> list[str]:
    rows = _rows(path, first_only=True)
    return [str(c) for c in rows[0]] if rows else []


def reply_rows(path: Path) -> list[tuple[str, str, str]]:
    """(truth, reply, study's extraction) per row of a reply sheet."""
    rows = _rows(path)
    columns = _reply_columns([str(c) for c in rows[0]]) if rows else None
    if columns is None:
        sys.exit(
            f"{path}: not a reply sheet (columns answer, answer_raw|answer-gpt, extracted_answer)"
        )
    truth, reply, theirs = columns
    return [
        (str(r[truth]), str(r[reply]), str(r[theirs])) for r in rows[1:] if r[reply] is not None
    ]


def replies(repo: Path) -> int:
    from chronoeval.suites.lost_in_time.answers import ClockTime
    from chronoeval.suites.lost_in_time.parsing import parse_clock_answer

    print(
        "| sheet | replies | parser = study's extraction | GPT-4o hour:minute, our parser | same, study's extraction |"
    )
    print("|---|---|---|---|---|")
    differ = []
    totals = [0, 0]
    for sheet in reply_sheets(repo):
        n = agree = ours_right = theirs_right = 0
        for truth, reply, extracted in reply_rows(sheet):
            gold = _clock(truth)
            theirs = _clock(extracted)
            parsed = parse_clock_answer(reply)
            ours = (
                (parsed.hour, parsed.minute, parsed.second)
                if isinstance(parsed, ClockTime)
                else None
            )
            same = (ours is None) == (theirs is None) and (
                ours is None
                or theirs is None
                or (ours[:2] == theirs[:2] and theirs[2] in (None, ours[2]))
            )
            n += 1
            agree += same
            ours_right += bool(gold and ours and ours[:2] == gold[:2])
            theirs_right += bool(gold and theirs and theirs[:2] == gold[:2])
            if not same:
                differ.append((sheet.relative_to(repo), truth, extracted, parsed, reply))
        totals[0] += n
        totals[1] += agree
        if n == 0:
            print(f"| {sheet.relative_to(repo)} | 0 | - | - | - |")
            continue
        print(
            f"| {sheet.relative_to(repo)} | {n} | {agree} | {ours_right} ({ours_right / n:.1%}) "
            f"| {theirs_right} ({theirs_right / n:.1%}) |"
        )
    print(f"\nparser = study's extraction on {totals[1]}/{totals[0]} replies; where they differ:")
    for sheet, truth, extracted, parsed, reply in differ:
        print(f"- {sheet} (truth {truth}): study {extracted!r}, parser {parsed}: {reply!r}")
    return 0


def _link(link: Path, target: Path) -> str:
    """A link in the labels' folder to an image read in place (one to an earlier checkout is
    replaced, not kept); its name."""
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(target.resolve())
    return link.name


def _write_labels(out: Path, rows: list[tuple[str, str, str]], what: str) -> int:
    with (out / "labels.csv").open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["file", "time", "group"])
        writer.writerows(rows)
    print(f"{len(rows)} {what}, labels in {out / 'labels.csv'}")
    return 0


def faces(repo: Path, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for group in FACE_SETS:
        folder = repo / group
        if not folder.is_dir():
            sys.exit(f"{folder}: not found (is --repo a checkout of aMa2210/LLM_analog_clocks?)")
        for path in sorted(folder.glob("*.png")):
            m = _NAME.fullmatch(path.name)
            if m is None:
                sys.exit(f"{path}: name is not HH_MM_SS.png")
            rows.append(
                (_link(out / f"{group}__{path.name}", path), f"{int(m[1])}:{m[2]}:{m[3]}", group)
            )
    return _write_labels(out, rows, "faces")


def movies(repo: Path, out: Path) -> int:
    """Links and a labels CSV (``H:MM``) for the film frames of ``data/demo``."""
    table = repo / "data" / "movies_final.csv"
    demo = repo / "data" / "demo"
    if not table.is_file() or not demo.is_dir():
        sys.exit(f"{repo}: no data/movies_final.csv and data/demo (a checkout of itsabouttime?)")
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with table.open(newline="") as fh:
        for line, row in enumerate(csv.DictReader(fh), start=2):
            path = demo / row["file_name"]
            if not path.is_file():
                continue  # the table labels 1,243 frames; 17 of them are released in data/demo
            try:
                hour, minute = int(row["hour"]), int(row["minute"])
            except (KeyError, ValueError):
                sys.exit(f"{table}:{line}: fields 'hour' and 'minute' must be integers")
            rows.append(
                (
                    _link(out / f"movie_{line:04d}.png", path),
                    f"{hour % 12 or 12}:{minute:02d}",
                    "movie_frame",
                )
            )
    return _write_labels(out, rows, "frames")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    r = sub.add_parser(
        "replies", help="ClockQA's parser on GPT-4o's replies vs the study's extraction"
    )
    r.add_argument("--repo", type=Path, required=True)
    f = sub.add_parser("faces", help="labels CSV + links for bench_clock_reader.py --images")
    f.add_argument("--repo", type=Path, required=True)
    f.add_argument("--out", type=Path, required=True)
    m = sub.add_parser("movies", help="labels CSV + links for itsabouttime's film frames")
    m.add_argument("--repo", type=Path, required=True)
    m.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.what == "replies":
        return replies(args.repo)
    if args.what == "movies":
        return movies(args.repo, args.out)
    return faces(args.repo, args.out)


if __name__ == "__main__":
    sys.exit(main())
