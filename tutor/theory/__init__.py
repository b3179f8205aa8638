"""The course's theory as code: formulas, arithmetic intensity, roofline classification.

Pure: no torch, no Textual, no files but the bundled model presets. Content (to check formula truths), grading (to
grade against a formula the lesson teaches) and measure (to count a workload's FLOPs and bytes) all import it, so the
taught formula and the measured figure come from the same code, and grading never reaches the measurement engine.
"""
