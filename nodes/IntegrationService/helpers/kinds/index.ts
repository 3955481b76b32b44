import type { FieldType } from '../../../shared/catalogue';
import { addresses } from './addresses';
import { boolean } from './boolean';
import { conditionGroups } from './conditionGroups';
import { emails, phones } from './contact';
import { consent, entitiesToSync } from './flags';
import { json, jsonArray } from './json';
import type { Fields, Kind } from './kind';
import { number } from './number';
import { objectList } from './objectList';
import { text } from './text';
import { textList } from './textList';

/** Every field type of the catalogue and its kind: the one place a type is looked up. */
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

/** The kinds as a whole, for the kinds made of parts and for the body and form builders. */
export const FIELDS: Fields = {
	property: (spec) => KINDS[spec.type].property(spec, FIELDS),
	part: (spec) => {
		const kind = KINDS[spec.type];
		return (kind.part ?? kind.property)(spec, FIELDS);
	},
	read: (at, spec, raw) => KINDS[spec.type].read(at, spec, raw, FIELDS),
	readPart: (at, spec, raw) => {
		const kind = KINDS[spec.type];
		return (kind.readPart ?? kind.read)(at, spec, raw, FIELDS);
	},
	words: (spec) => KINDS[spec.type].words(spec, FIELDS),
};
