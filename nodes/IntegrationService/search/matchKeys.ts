/** How people are recognised again: the match keys of an email, a phone and a name. */
import type { IDataObject } from 'n8n-workflow';

import { isJsonObject } from '../../shared/service';

export type MatchKind = 'email' | 'phone' | 'name';
export const MATCH_KINDS: readonly MatchKind[] = ['email', 'phone', 'name'];

/** As the service sent it (a numeric ID stays a number in output). */
export type PersonId = string | number;

export type PersonKeys = Record<MatchKind, string[]>;

/** Fewer digits than this is no phone number worth matching on (an extension, "0", "911"). */
const MIN_PHONE_DIGITS = 7;
/** The national number: ten digits in North America (and UK's after 0/+44). */
const PHONE_DIGITS = 10;

/** Trimmed and lower-case: `Ada@Example.TEST ` and `ada@example.test` are one person. */
export function emailKey(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const key = value.trim().toLowerCase();
	return key === '' ? undefined : key;
}

/** The digits without an extension, the last ten when there are more: `+1 (555) 010-0001` is `5550100001`. */
export function phoneKey(value: unknown): string | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const number = String(value).split(/x|#|;/i)[0];
	const digits = number.replace(/\D/g, '');
	if (digits.length < MIN_PHONE_DIGITS) return undefined;
	return digits.length > PHONE_DIGITS ? digits.slice(-PHONE_DIGITS) : digits;
}

/** `Ada  LOVELACE` is `ada lovelace`. */
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

/** A contact list's values, as objects with `value` or as text. */
export function contactValues(field: unknown): unknown[] {
	const entries: unknown[] = [field ?? []].flat();
	return entries.map((entry) => (isJsonObject(entry) ? entry.value : entry));
}

export function keysOf(kind: MatchKind, values: readonly unknown[]): string[] {
	const keys = values.map(KEY_OF[kind]).filter((key) => key !== undefined);
	return [...new Set(keys)];
}

/** Every email and phone (not only the primary), and both `name` and first + last. */
export function personKeys(person: IDataObject): PersonKeys {
	const first = typeof person.firstName === 'string' ? person.firstName : '';
	const last = typeof person.lastName === 'string' ? person.lastName : '';
	return {
		email: keysOf('email', [...contactValues(person.emails), person.email]),
		phone: keysOf('phone', [...contactValues(person.phones), person.phone]),
		name: keysOf('name', [person.name, `${first} ${last}`]),
	};
}

export function personIdOf(record: IDataObject): PersonId | undefined {
	const { id } = record;
	if (typeof id === 'number') return Number.isFinite(id) ? id : undefined;
	return typeof id === 'string' && id.trim() !== '' ? id : undefined;
}
