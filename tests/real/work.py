# work.py: make check-real's python3 workload: dicts, lists, sets,
# sorting and string work, deterministic (run with PYTHONHASHSEED=0, so
# str hashes are fixed).
x = 12345
counts = {}
for i in range(20000):
    x = (x * 1103515245 + 12345) % 2147483648
    word = ''.join(chr(97 + (x >> (3 * k)) % 26) for k in range(3 + i % 5))
    counts[word] = counts.get(word, 0) + 1
by_count = sorted(counts, key=lambda w: (-counts[w], w))
lengths = {}
for w in by_count:
    lengths.setdefault(len(w), []).append(w)
squares = [n * n for n in range(10000) if n % 3]
letters = set(''.join(by_count[:500]))
text = ' '.join(w.capitalize() for w in by_count[:1000])
print(f"python3: {len(by_count)} words, top {by_count[0]}, "
      f"{len(lengths)} lengths, {sum(squares) % 1000003}, "
      f"{len(letters)} letters, {len(text)} chars")
