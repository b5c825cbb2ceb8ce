/** L2 normalisation: the pooled vectors of a model that wants it, and document vectors (ingest/document-openings.ts). */

/** Scales v to unit length in place; a zero vector stays zero. */
export function normalizeInPlace(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

/** A unit-length copy of v. */
export function normalised(v: Float32Array): Float32Array {
  return normalizeInPlace(Float32Array.from(v));
}
