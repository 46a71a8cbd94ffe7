"""Prompt texts for the nine tasks and the recognition control. The paper publishes none; each
states the task as §III defines it and the exact answer format the parser reads."""

from __future__ import annotations

from collections.abc import Sequence

INTRO = {
    "tal": "The following five remote sensing images are meant to show one location over time, "
    "in chronological order.",
    "isr": "The following {k} remote sensing images show the same location at different times, "
    "in a shuffled order.",
    "sov": "The following {k} remote sensing images show the same location at different times.",
    "pov": "The following two remote sensing images show the same location at different times.",
    "tpl": "The first three images below are positions 1, 3 and 5 of an evenly spaced "
    "chronological sequence of five remote sensing images of one location. The fourth image is "
    "the one missing from that sequence.",
    "ice": "The following two remote sensing images show the same location at two different "
    "times (in either order).",
    "pic": "Pair 1 (images 1 and 2) shows one location at two different times; Pair 2 (images 3 "
    "and 4) shows another location at two different times.",
    "ipr": "Each group below shows one location at two different times.",
    "eii": "Each group below shows one location at two different times.",
    "recognition": "",
}

QUESTION = {
    "tal": "Four of them form a coherent temporal progression of one location; one image is "
    "anomalous: it is out of temporal order or shows a different location. Which image is the "
    "anomaly? Answer with the image number (1-5) only.",
    "isr": "Put the images in chronological order from earliest to latest. Answer with the image "
    "numbers separated by commas, earliest first (for example: 3, 1, 5, 2, 4).",
    "sov": "Are these images shown in chronological order, earliest first? Answer True or False.",
    "pov": "Was image 1 taken before image 2? Answer True or False.",
    "tpl": "Does the fourth image belong at position 2 (between the first and second images) or "
    "at position 4 (between the second and third images)? Answer with 2 or 4.",
    "ice": "How much time passed between the two images? {options} Answer with the letter of one "
    "option.",
    "pic": "Is the time span between the two images of Pair 1 longer than the time span between "
    "the two images of Pair 2? Answer True or False.",
    "ipr": "Rank the groups by the time span between their two images, from shortest to longest. "
    "Answer with the three group letters separated by commas, shortest first (for example: B, C, "
    "A).",
    "eii": "Which group has the longest time span between its two images? Answer with the group "
    "letter (A, B, C or D).",
    "recognition": "Which scene category does this remote sensing image show? {options} Answer "
    "with the letter of one option.",
}


def options_text(options: Sequence[str]) -> str:
    return " ".join(f"{chr(65 + i)}. {o}" for i, o in enumerate(options))


def image_labels(n_images: int, groups: Sequence[int]) -> list[str]:
    """The caption before each image: "Image k:" or, for pair tasks with lettered groups,
    "Group B, image 1:" (PIC's numbered pairs keep "Image k")."""
    if not groups or len(groups) == 2:
        return [f"Image {k + 1}:" for k in range(n_images)]
    out = []
    for g, size in enumerate(groups):
        out += [f"Group {chr(65 + g)}, image {j + 1}:" for j in range(size)]
    return out
