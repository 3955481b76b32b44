/** Most of `times` (epoch ms, any order) that fall within any one second: what a service's rate limit sees. */
export function busiestSecond(times: readonly number[]): number;
