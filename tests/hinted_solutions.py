"""What a student who follows each stub's `# Hint:` literally writes, and no more: by
notebook and cell id, the code of the cell's solution region. tests/test_classroom.py
hands them in and grades them: a hint must be enough to pass its stage's checks and
hidden tests. Each differs from our model answer where a hint leaves a choice."""

HINTED = {
    "01_ngrams.ipynb": {
        # every order up to max_order: those longer than the sentence add nothing
        "c19": """
counts = Counter()
for n in range(1, max_order + 1):
    counts.update(ngrams(tokens, n))
return counts
""",
    },
    "02_modified_precision.ipynb": {
        "c10": """
limits = ngram_counts(refs[0], max_order)
for ref in refs[1:]:
    for ngram, count in ngram_counts(ref, max_order).items():
        limits[ngram] = max(limits[ngram], count)
return limits
""",
        "c14": """
matches, totals = [0] * max_order, [0] * max_order
for ngram, count in hyp_counts.items():
    totals[len(ngram) - 1] += count
    matches[len(ngram) - 1] += min(count, limits.get(ngram, 0))
return matches, totals
""",
    },
    "03_brevity_penalty.ipynb": {
        "c06": "return min(ref_lens, key=lambda r: (abs(r - hyp_len), r))\n",
        # the cases the hint lists, in its order, each as the lesson states it
        "c11": """
if hyp_len > closest_ref_len:
    return 1.0
if hyp_len == 0:
    return 0.0
if closest_ref_len > 1000 * hyp_len:
    return 0.0
return math.exp(1 - closest_ref_len / hyp_len)
""",
    },
    "05_corpus_bleu.ipynb": {
        "c10": """
stats = [segment_stats(r, h, max_order) for r, h in zip(refs_per_segment, hyps)]
return reduce(add, stats)
""",
    },
    "07_smoothing.ipynb": {
        "c15": """
counts, scale = [], 1.0
for m_n in m[: len(l)]:
    if m_n == 0:
        scale = scale * factor
        counts.append(scale)
    else:
        counts.append(m_n)
return counts
""",
        # the hint's rule for p[n-2] = 0, and nothing else of the model answer
        "c21": """
counts, totals = list(m[:2]), list(l[:2])
precisions = [m_n / l_n for m_n, l_n in zip(counts, totals)]
for n in range(2, len(l)):
    before, last = precisions[n - 2], precisions[n - 1]
    prior = 0 if before == 0 else last**2 / before
    counts.append(m[n] + alpha * prior)
    totals.append(l[n] + alpha)
    precisions.append(counts[n] / totals[n])
return counts, totals
""",
        "c19": """
counts = []
previous = m[0] + 1
for n in range(len(l)):
    average = (previous + m[n] + m[n + 1]) / 3
    counts.append(average)
    previous = average
return counts, list(l)
""",
    },
    "10_significance.ipynb": {
        "c15": """
low = len(ordered) // 40
kept = ordered[low : len(ordered) - low]
return float(kept[0]), float(kept[-1])
""",
        "c19": """
if ties:
    beyond = sum(1 for s in statistics if s >= observed)
else:
    beyond = sum(1 for s in statistics if s > observed)
return (beyond + 1) / (len(statistics) + 1)
""",
        "c37": """
m = len(p_values)
for k, i in enumerate(order):
    running = max(running, min(1.0, (m - k) * p_values[i]))
    adjusted[i] = running
""",
    },
    "11_explaining_a_score.ipynb": {
        "c05": """
if -math.inf in logs:
    infinite = logs.count(-math.inf)
    return [100.0 / infinite if log == -math.inf else 0.0 for log in logs]
if all(log == 0 for log in logs):
    return [0.0] * len(logs)
return [(100.0 - score) * log / sum(logs) for log in logs]
""",
        "c15": """
for gram in ngrams(hyp, n):
    seen[gram] += 1
    limit = limits.get(gram, 0)
    if seen[gram] <= limit:
        statuses.append("matched")
    elif limit > 0:
        statuses.append("clipped")
    else:
        statuses.append("unmatched")
""",
    },
    "12_what_a_score_means.ipynb": {
        "c15": """
dx, dy = xs - xs.mean(), ys - ys.mean()
r = math.fsum(dx * dy) / math.sqrt(math.fsum(dx**2) * math.fsum(dy**2))
""",
        "c19": """
if variant == "a":
    denominator = c + d + ties_x + ties_y + ties_both
elif variant == "b":
    denominator = math.sqrt((c + d + ties_x) * (c + d + ties_y))
else:
    denominator = c + d
""",
    },
}
