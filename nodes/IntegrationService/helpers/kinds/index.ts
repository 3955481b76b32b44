import type { FieldType } from '../../../shared/catalogue';
import { boolean } from './boolean';
import { conditionGroups } from './conditionGroups';
import { addresses, emails, phones } from './contact';
import { consent, entitiesToSync } from './flags';
import { json, jsonArray } from './json';
import type { Fields, Kind } from './kind';
import { number } from './number';
import { objectList } from './objectList';
import { text } from './text';
import { textList } from './textList';

/** The one place a field type is looked up. */
export const KINDS: Readonly<Record<FieldType, Kind>> = {
	string: text,
	dateTime: text,
	number,
	boolean,
	stringList: textList,
	json,
	jsonArray,
	objectList,
	conditionGroups,
	emails,
	phones,
	addresses,
	consent,
	entitiesToSync,
};

export const FIELDS: Fields = {
	property: (spec) => KINDS[spec.type].property(spec, FIELDS),
	part: (spec) => (KINDS[spec.type].part ?? KINDS[spec.type].property)(spec, FIELDS),
	read: (at, spec, raw) => KINDS[spec.type].read(at, spec, raw, FIELDS),
	readPart: (at, spec, raw) =>
		(KINDS[spec.type].readPart ?? KINDS[spec.type].read)(at, spec, raw, FIELDS),
	words: (spec) => KINDS[spec.type].words(spec, FIELDS),
};
