// One data seed per test run, so that every run checks fresh data: UZIP_TEST_SEED=N repeats a run's data
// (the seed is printed when a suite first imports this).
const fromEnv = Deno.env.get("UZIP_TEST_SEED");
/** The run's base seed: add it to a case's own seed. */
export const RUN_SEED: number = fromEnv ? Number(fromEnv) % 2 ** 30 : Math.floor(Math.random() * 2 ** 30);
console.log(`test data seed ${RUN_SEED} (UZIP_TEST_SEED=${RUN_SEED} repeats this run's data)`);
