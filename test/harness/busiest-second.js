// Plain CommonJS so that the jest suites and the e2e driver (plain Node, test/e2e/) share one copy.

/** Most of `times` (epoch ms, any order) that fall within any one second: what a service's rate limit sees. */
function busiestSecond(times) {
	const sorted = [...times].sort((a, b) => a - b);
	let busiest = 0;
	for (let first = 0, last = 0; last < sorted.length; last++) {
		while (sorted[last] - sorted[first] >= 1000) first++;
		busiest = Math.max(busiest, last - first + 1);
	}
	return busiest;
}

module.exports = { busiestSecond };
