/**
 * Seeded people: deterministic from the seed. Each person's JSON is computed once so page bodies are
 * built by joining strings (the benchmark lists 50,000 people).
 */

/** mulberry32: tiny deterministic PRNG, so seeded data and ratio faults repeat run to run. */
export function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Mixes (seed, index) into a well-spread 32-bit seed (murmur3 finaliser): neighbours must not correlate. */
function mix32(seed: number, index: number): number {
	let h = (seed ^ Math.imul(index, 0x9e3779b1)) >>> 0;
	h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
	h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
	return (h ^ (h >>> 16)) >>> 0;
}

const FIRST = [
	'Ada',
	'Ben',
	'Cleo',
	'Dan',
	'Eva',
	'Finn',
	'Gia',
	'Hugo',
	'Iris',
	'Jon',
	'Kara',
	'Leo',
	'Mia',
	'Nils',
	'Olga',
	'Paul',
	'Quin',
	'Rosa',
	'Sam',
	'Tara',
	'Uma',
	'Vic',
	'Wes',
	'Xena',
	'Yuri',
	'Zoe',
];
const LAST = [
	'Adams',
	'Brown',
	'Clark',
	'Diaz',
	'Evans',
	'Fox',
	'Garcia',
	'Hill',
	'Ito',
	'Jones',
	'King',
	'Lopez',
	'Moore',
	'Nguyen',
	'Ortiz',
	'Patel',
	'Quinn',
	'Reed',
	'Smith',
	'Turner',
	'Usman',
	'Vega',
	'White',
	'Young',
	'Zhang',
];
const CITIES: [string, string, string][] = [
	['Austin', 'TX', '78701'],
	['Denver', 'CO', '80202'],
	['Boston', 'MA', '02108'],
	['Seattle', 'WA', '98101'],
	['Miami', 'FL', '33101'],
	['Portland', 'OR', '97201'],
	['Chicago', 'IL', '60601'],
	['Phoenix', 'AZ', '85001'],
];
const STREETS = [
	'Oak St',
	'Maple Ave',
	'Pine Rd',
	'Cedar Ln',
	'Elm Dr',
	'Birch Way',
	'Lake Blvd',
	'Hill Ct',
];
const TAGS = ['buyer', 'seller', 'investor', 'first-time', 'relocation', 'vip', 'referral', 'cold'];
const STAGES = ['Lead', 'Prospect', 'Active', 'Under Contract', 'Closed', 'Past Client'];
const SOURCES = ['Zillow', 'Website', 'Referral', 'Open House', 'Facebook', 'Realtor.com'];
const ZONES = [
	'America/Chicago',
	'America/Denver',
	'America/New_York',
	'America/Los_Angeles',
	'America/Phoenix',
];
const JOBS = ['Engineer', 'Teacher', 'Nurse', 'Designer', 'Accountant', 'Chef', 'Pilot', 'Analyst'];
// Notes are a window into this text (one random draw instead of one per word: seeding speed matters).
const NOTES_TEXT =
	'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua ut enim ad minim veniam quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt in culpa qui officia deserunt mollit anim id est laborum';
const SEED_EPOCH = Date.UTC(2024, 0, 1);
export const SEED_TIME = new Date(SEED_EPOCH).toISOString();

// The seeded JSON below is written by hand (eight times faster than building objects and calling
// JSON.stringify, which matters for 50,000 people). That is only valid while every string it embeds
// needs no JSON escaping, so check the word lists once here.
for (const list of [
	FIRST,
	LAST,
	CITIES.flat(),
	STREETS,
	TAGS,
	STAGES,
	SOURCES,
	ZONES,
	JOBS,
	[NOTES_TEXT],
]) {
	for (const word of list) {
		if (JSON.stringify(word) !== `"${word}"`)
			throw new Error(`seed word needs JSON escaping: ${word}`);
	}
}

const seedDays = new Map<number, string>();
/** Date#toISOString for whole-second times, several times faster (100,000 calls per 50,000 people). */
function seedIso(ms: number): string {
	const day = Math.floor(ms / 86_400_000);
	let prefix = seedDays.get(day);
	if (prefix === undefined) {
		prefix = new Date(day * 86_400_000).toISOString().slice(0, 11);
		seedDays.set(day, prefix);
	}
	const sec = Math.floor((ms - day * 86_400_000) / 1000);
	const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
	return `${prefix}${two(Math.floor(sec / 3600))}:${two(Math.floor(sec / 60) % 60)}:${two(sec % 60)}.000Z`;
}

/**
 * Person number i (1-based) of the seeded set, as JSON. Each person has its own PRNG stream derived
 * from (seed, i), so the set is the same whatever its size, and any person could be made on its own.
 */
function generatePerson(i: number, seed: number): string {
	const rnd = mulberry32(mix32(seed, i));
	const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
	const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
	const pad = (n: number, width: number): string => String(n).padStart(width, '0');
	const firstName = pick(FIRST);
	const lastName = pick(LAST);
	const [city, state, code] = pick(CITIES);
	const created = seedIso(SEED_EPOCH + i * 61_000);
	const updated = seedIso(SEED_EPOCH + i * 61_000 + int(0, 86_400) * 1000);
	const tags = rnd() < 0.5 ? `"${pick(TAGS)}"` : `"${pick(TAGS)}","${pick(TAGS)}"`;
	const notesStart = int(0, NOTES_TEXT.length - 180);
	const notes = NOTES_TEXT.slice(notesStart, notesStart + 180).trim();
	const email = `${firstName}.${lastName}.${i}@example.test`.toLowerCase();
	const phone = `+1555${pad(int(0, 9_999_999), 7)}`;
	const street = `${int(1, 9999)} ${pick(STREETS)}`;
	const stage = int(0, STAGES.length - 1);
	const consent = `{"email":true,"call":${rnd() < 0.8},"text":${rnd() < 0.6},"massEmail":${rnd() < 0.4},"postal":true,"visit":false}`;
	const json =
		`{"id":"p_${i}","name":"${firstName} ${lastName}","firstName":"${firstName}","lastName":"${lastName}",` +
		`"timezone":"${pick(ZONES)}","assignedUserId":"u_${int(1, 20)}","assignedPondId":"pond_${int(1, 5)}",` +
		`"officeId":"office_${int(1, 3)}","timeframeId":"tf_${int(1, 4)}","stage":"${STAGES[stage]}","stageId":"stage_${stage + 1}",` +
		`"tags":[${tags}],` +
		`"addresses":[{"type":"home","street":"${street}","city":"${city}","state":"${state}","code":"${code}","country":"US"}],` +
		`"emails":[{"value":"${email}","type":"home","status":"Valid","isPrimary":true}],` +
		`"phones":[{"value":"${phone}","type":"mobile","status":"Valid","isPrimary":true}],` +
		`"source":"${pick(SOURCES)}","sourceId":"src_${int(1, 50)}","systemSource":"crm",` +
		`"averageBeds":${int(1, 5)},"averagePrice":${int(150, 1500) * 1000},` +
		`"birthday":"19${int(50, 99)}-${pad(int(1, 12), 2)}-${pad(int(1, 28), 2)}",` +
		`"lastActivity":"${updated}","lastActivityType":"${pick(['call', 'email', 'text', 'showing'])}",` +
		`"contactTypes":["${pick(['lead', 'client', 'agent', 'vendor'])}"],"jobTitle":"${pick(JOBS)}",` +
		`"companyName":"${pick(LAST)} ${pick(['LLC', 'Inc', 'Group', 'Partners'])}","communicationsConsent":${consent},` +
		`"created":"${created}","updated":"${updated}","serviceUpdated":"${updated}",` +
		`"originalIds":{"crm":"crm-${100000 + i}"},` +
		// A few hundred bytes of "as held in the external system" data, like a real connector.
		`"original":{"id":${100000 + i},"first_name":"${firstName}","last_name":"${lastName}","email_address":"${email}",` +
		`"phone_number":"${phone}","street_address":"${street}","city":"${city}","state":"${state}","zip":"${code}",` +
		`"lead_score":${int(0, 100)},"notes":"${notes}","created_at":"${created}"}}`;
	json.charCodeAt(0); // flattens V8's rope of concatenations now, so the stored string is compact
	return json;
}

/**
 * All seeded people as JSON strings, serialised once up front (well under a second for 50,000): the benchmark
 * measures listing, so no generation cost may leak into it. Pages are then built by joining these.
 */
export function generatePeople(count: number, seed: number): string[] {
	const out = new Array<string>(count);
	for (let i = 0; i < count; i++) out[i] = generatePerson(i + 1, seed);
	return out;
}
