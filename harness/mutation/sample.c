// SPDX-License-Identifier: GPL-2.0-only
/* sample.c: seeded per-file stratified sampling (sample.h). */
#include "sample.h"

#include <stdlib.h>
#include <string.h>

static unsigned long long splitmix64(unsigned long long *x)
{
	unsigned long long z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

size_t sample_pick(const struct gmut *v, size_t n, size_t want,
		   unsigned long long seed, unsigned char *pick)
{
	memset(pick, 0, n);
	if (want >= n) {
		memset(pick, 1, n);
		return n;
	}
	/* Files as runs of the sorted list: [start, end). */
	size_t nf = 0, *start = calloc(n + 1, sizeof *start);
	for (size_t i = 0; i < n; i++)
		if (!i || strcmp(v[i].m.file, v[i - 1].m.file))
			start[nf++] = i;
	start[nf] = n;
	size_t *share = calloc(nf ? nf : 1, sizeof *share), given = 0;
	for (size_t f = 0; f < nf; f++) {
		size_t size = start[f + 1] - start[f];
		size_t s = (size_t)((double)want * (double)size / (double)n);
		size_t floor_ = size < SAMPLE_MIN_PER_FILE ? size : SAMPLE_MIN_PER_FILE;
		share[f] = s < floor_ ? floor_ : s;
		given += share[f];
	}
	/* Even out rounding: add to the file with the most mutants left out,
	 * take from the largest share still above its floor. */
	while (given < want) {
		size_t best = 0;
		for (size_t f = 1; f < nf; f++)
			if (start[f + 1] - start[f] - share[f] > start[best + 1] - start[best] - share[best])
				best = f;
		share[best]++, given++;
	}
	while (given > want) {
		size_t best = nf;
		for (size_t f = 0; f < nf; f++)
			if (share[f] > SAMPLE_MIN_PER_FILE && (best == nf || share[f] > share[best]))
				best = f;
		if (best == nf)
			break; /* every file at its floor: the sample is a little larger */
		share[best]--, given--;
	}
	unsigned long long x = seed;
	size_t picked = 0;
	for (size_t f = 0; f < nf; f++) {
		size_t size = start[f + 1] - start[f];
		size_t *idx = malloc(size * sizeof *idx);
		for (size_t i = 0; i < size; i++)
			idx[i] = start[f] + i;
		/* Partial Fisher-Yates: the first share[f] slots are the draw. */
		for (size_t i = 0; i < share[f] && i < size; i++) {
			size_t j = i + (size_t)(splitmix64(&x) % (size - i));
			size_t t = idx[i];
			idx[i] = idx[j];
			idx[j] = t;
			pick[idx[i]] = 1;
			picked++;
		}
		free(idx);
	}
	free(start);
	free(share);
	return picked;
}

size_t sample_plain(size_t n, size_t want, unsigned long long seed, unsigned char *pick)
{
	memset(pick, 0, n);
	if (want > n)
		want = n;
	size_t *idx = malloc((n ? n : 1) * sizeof *idx);
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	unsigned long long x = seed;
	for (size_t i = 0; i < want; i++) {
		size_t j = i + (size_t)(splitmix64(&x) % (n - i));
		size_t t = idx[i];
		idx[i] = idx[j];
		idx[j] = t;
		pick[idx[i]] = 1;
	}
	free(idx);
	return want;
}
