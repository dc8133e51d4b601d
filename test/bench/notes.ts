/** The analysis under the figures of docs/benchmarks.md: what was profiled, what changed, what was not. */
export const BENCH_NOTES = `## Notes

(to be written from the profiles)
`;
