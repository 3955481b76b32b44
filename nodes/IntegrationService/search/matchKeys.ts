/**
 * How people are recognised again (Person › Find, Create or Update): the match key of an email, a
 * phone and a name, and a person's keys as the service answers it. Answers vary by connected system,
 * so contact values may be objects (`{value, type, isPrimary}` in any shape) or plain text, and an ID
 * a number or a string: it is kept as it came.
 */
import type { IDataObject } from 'n8n-workflow';

export type MatchKind = 'email' | 'phone' | 'name';
export const MATCH_KINDS: readonly MatchKind[] = ['email', 'phone', 'name'];

/** A record's ID as the service sent it (a numeric ID stays a number in output). */
export type PersonId = string | number;

/** A person's match keys by kind, each list without repeats. */
export type PersonKeys = Record<MatchKind, string[]>;

/** Fewer digits than this is no phone number worth matching on (an extension, "0", "911"). */
const MIN_PHONE_DIGITS = 7;
/** The national number most people's CRMs hold: ten digits in North America (and UK's 10 after 0/+44). */
const PHONE_DIGITS = 10;

/** Trimmed and lower-case: `Ada@Example.TEST ` and `ada@example.test` are one person. */
export function emailKey(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const key = value.trim().toLowerCase();
	return key === '' ? undefined : key;
}

/**
 * The digits of a phone, without an extension; its last ten when it has ten or more, so that
 * `+1 (555) 010-0001`, `1-555-010-0001` and `555.010.0001` are one number (a country code or a
 * trunk 0 in front is dropped), else all of them (a local number matches only its own writing).
 */
export function phoneKey(value: unknown): string | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	// An extension follows x, ext, # or ; ("555-010-0001 x12") and is no part of the number.
	const number = String(value).split(/x|#|;/i)[0];
	const digits = number.replace(/\D/g, '');
	if (digits.length < MIN_PHONE_DIGITS) return undefined;
	return digits.length > PHONE_DIGITS ? digits.slice(-PHONE_DIGITS) : digits;
}

/** The whole name, lower-case, its words one space apart: `Ada  LOVELACE` is `ada lovelace`. */
export function nameKey(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const key = value.trim().replace(/\s+/g, ' ').toLowerCase();
	return key === '' ? undefined : key;
}

export const KEY_OF: Record<MatchKind, (value: unknown) => string | undefined> = {
	email: emailKey,
	phone: phoneKey,
	name: nameKey,
};

/** The values of a contact list in any shape the service sends: objects with `value`, or text. */
export function contactValues(field: unknown): unknown[] {
	const entries = Array.isArray(field)
		? field
		: field === undefined || field === null
			? []
			: [field];
	return entries.map((entry) =>
		entry !== null && typeof entry === 'object' && !Array.isArray(entry)
			? (entry as IDataObject).value
			: entry,
	);
}

/** The keys of one kind from raw values, without repeats. */
export function keysOf(kind: MatchKind, values: readonly unknown[]): string[] {
	const keys = new Set<string>();
	for (const value of values) {
		const key = KEY_OF[kind](value);
		if (key !== undefined) keys.add(key);
	}
	return [...keys];
}

/**
 * A person's keys: every email and phone (not only the primary one, whatever `isPrimary` says), and
 * both `name` and first + last (they differ when a connector fills only one of them).
 */
export function personKeys(person: IDataObject): PersonKeys {
	const first = typeof person.firstName === 'string' ? person.firstName : '';
	const last = typeof person.lastName === 'string' ? person.lastName : '';
	return {
		email: keysOf('email', [...contactValues(person.emails), person.email]),
		phone: keysOf('phone', [...contactValues(person.phones), person.phone]),
		name: keysOf('name', [person.name, `${first} ${last}`]),
	};
}

/** A record's ID if it has a usable one: a non-empty text or a finite number. */
export function personIdOf(record: IDataObject): PersonId | undefined {
	const { id } = record;
	if (typeof id === 'number') return Number.isFinite(id) ? id : undefined;
	return typeof id === 'string' && id.trim() !== '' ? id : undefined;
}
