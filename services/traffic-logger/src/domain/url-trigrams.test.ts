import { chooseIndexedPart, patternTrigrams, storedTrigrams, TrigramFrequencies } from './url-trigrams';

const sorted = (s: Set<string>) => [...s].sort();

describe('pg_trgm trigram extraction', () => {
  it('pads every word of a stored value like show_trgm', () => {
    expect(sorted(storedTrigrams('Ab/4242?'))).toEqual(sorted(new Set(['  a', ' ab', 'ab ', '  4', ' 42', '424', '242', '42 '])));
  });

  it('leaves a pattern word open where it touches the %, padded where it touches another character', () => {
    expect(sorted(patternTrigrams('resource/4242?'))).toEqual(
      sorted(new Set(['res', 'eso', 'sou', 'our', 'urc', 'rce', 'ce ', '  4', ' 42', '424', '242', '42 '])),
    );
    expect(sorted(patternTrigrams('4242'))).toEqual(['242', '424']);
    expect(patternTrigrams('ab').size).toBe(0);
    expect(sorted(patternTrigrams('/a/'))).toEqual(['  a', ' a ']);
  });
});

describe('chooseIndexedPart', () => {
  // 100 URLs that all share the host and path prefix; the resource ids are distinct.
  const sample = Array.from({ length: 100 }, (_, i) => ({ url: `http://host.example.test/api/v1/resource/${1000 + i * 37}?q=1`, weight: 0.01 }));
  const freq = new TrigramFrequencies(sample);

  it('drops the trigrams every URL shares and keeps the rare part', () => {
    const part = chooseIndexedPart('resource/4242?', freq);
    expect(part).toBeDefined();
    expect('resource/4242?'.includes(part as string)).toBe(true);
    expect([...patternTrigrams(part as string)].every((t) => freq.of(t) <= 0.02)).toBe(true);
    expect(patternTrigrams(part as string).has('424')).toBe(true);
  });

  it('keeps the whole substring when none of its trigrams is rare (a common substring) or all are', () => {
    expect(chooseIndexedPart('/api/v1/', freq)).toBeUndefined();
    expect(chooseIndexedPart('zzqqxx', freq)).toBeUndefined();
    expect(chooseIndexedPart('a/', freq)).toBeUndefined();
  });

  it('falls back to a part that adds moderately common trigrams to a rare one', () => {
    // ids 1000, 1037, … 4663: 18 of the 100 start with 4, 2 with 46.
    expect(freq.of('  4')).toBeCloseTo(0.18);
    expect(freq.of(' 46')).toBeCloseTo(0.02);
    expect(chooseIndexedPart('resource/46', freq)).toBe('/46');
  });

  it('counts the sample weights', () => {
    expect(freq.of('res')).toBeCloseTo(1);
    expect(freq.of('zzz')).toBe(0);
  });
});
