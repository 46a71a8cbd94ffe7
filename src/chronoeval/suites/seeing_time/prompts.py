"""Prompts, verbatim from the released ChronoVision scripts (``peers/chronovision/prompts.json``,
commit becc2b4) unless a line says otherwise."""

from __future__ import annotations

LOCALIZATION = (
    "Which historical period does the style of the item in this image belong to, among the "
    "following options? \nOptions:\n{options}\n\nPlease output the letter and the dynasty name "
    "only (e.g., 'A. 唐(Tang Dynasty)')."
)
LOCALIZATION_GENERIC = (
    "Which historical period does the style of the item in this image belong to, among the "
    "following options? \nOptions:\n{options}\n\nPlease output the letter and the period name "
    "only (e.g., 'A. {example}')."
)
"""Ours: the same question for user era labels (the release's example names a dynasty)."""

SORT_SYSTEM = (
    "You are a professional historian and artifact expert. Analyze the provided images and sort "
    "them in chronological order from oldest to newest. CRITICAL: You must output ONLY a valid "
    "JSON object. Do not include any conversational text or thinking process outside the JSON. If "
    "you need to think, put your reasoning inside a 'thought' key within the JSON."
)
SORT_REQUIREMENT = (
    "{prompt}\n\nRequirement: Sort the images by dynasty. Output strictly in this JSON format: "
    '{{"ans": "the_sorted_indices_here"}}. Example: {{"ans": "{example}"}}'
)
"""The release's requirement line; its example is 1-based ("2, 3, 1, 4, 5") while the prompt asks
for 0-based indices. Ours writes the example 0-based so the two agree (docs: decision S2)."""
SORT_INTRA = (
    "You are an expert in Chinese historical artifactsfrom different dynasties. Please arrange "
    "these images in chronological order (from oldest to most recent) based on their visual style "
    "and era-specific characteristics. Provide your answer as a comma-separated list of the image "
    "indices (0-{last}) **ONLY**. Do not include any other text or explanation. Example: {example}"
)
SORT_CROSS = (
    "You are an expert in Chinese historical artifacts. The attached images show {count} pieces "
    "of Artifacts_Mixed from different dynasties. Please arrange these images in chronological "
    "order (from oldest to most recent) based on their visual style and era-specific "
    "characteristics. Provide your answer as a comma-separated list of the image indices "
    "(0-{last}) **ONLY**. Do not include any other text or explanation. Example: {example}"
)
"""The two ``prompt`` texts of sort_test_with_ans.jsonl, for generated sets."""

SHORTCUT_SYSTEM = (
    "You are an expert in historical visual analysis. Analyze the provided images for "
    "chronological clues such as technology, fashion, architecture, and photo quality. You must "
    "output a single JSON object containing: 1. 'thinking': A detailed step-by-step analysis of "
    "which image is older. 2. 'answer': Strictly the number '1' (if Image 1 is earlier) or '2' "
    "(if Image 2 is earlier)."
)
SHORTCUT_USER = (
    "Compare these two images and determine which one appeared EARLIER in history.\n"
    "Image 1 is the first image provided.\nImage 2 is the second image provided.\n"
    "Output your analysis and final choice in JSON format."
)
SHORTCUT_COT_SYSTEM = (
    "You are an expert in historical visual analysis and chronological reasoning. Your goal is to "
    "determine the temporal order of images by identifying intrinsic time anchors.\n\n"
    "You must output a single JSON object with the following keys:\n"
    "1. 'time_anchors': Identified entities for each image.\n"
    "2. 'historical_context': Earliest appearance dates for these entities.\n"
    "3. 'reasoning_path': Step-by-step logical deduction.\n"
    "4. 'bias_mitigation': Self-correction to exclude color bias.\n"
    "5. 'answer': Strictly the string '1' or '2'."
)
SHORTCUT_COT_USER = (
    "Analyze these two images and determine which one appeared EARLIER in history.\n"
    "Follow these steps strictly:\nStep 1: Identify visual entities.\n"
    "Step 2: List historical appearance times.\nStep 3: Detail thinking process.\n"
    "Step 4: Perform Bias-Check.\n\nOutput everything in a structured JSON format."
)

YEAR = (
    "In which year did this image first appear? Respond only with the 4-digit year "
    "(e.g., 2000) and nothing else."
)
YEAR_CONFIDENCE = (
    "In which year did this image first appear? Also rate your confidence that the year is "
    "exactly right as an integer from 0 to 100. Respond only with a JSON object "
    '{"year": <4-digit year>, "confidence": <0-100>} and nothing else.'
)
"""Ours: the paper (Sec. VII-B) asks for a year and a 0–100 confidence but prints no prompt."""

ALIGNMENT = (
    "\n The images are numbered '1' '2' '3' '4' in the order they were input(e.g. '1' represents "
    "the first input image, '4' represents the last input image)\nEvent Description: "
    "{event_description}\nBased on the visual evidence, which image was taken in the same year as "
    "the event?Respond ONLY with the digit.(e.g. 1)"
)
