/** Bearer-token checks: the static access token, or an HS512 JWT signed with the client secret. */
import * as crypto from 'crypto';

import { isJsonObject } from './types';

export interface TokenRules {
	token: string;
	jwtSecret: string;
	jwtIssuer: string;
}

/** Signs an HS512 JWT as a client would; tests use it to forge expired or wrongly signed tokens. */
export function signJwtForTest(claims: Record<string, unknown>, secret: string): string {
	const header = Buffer.from(JSON.stringify({ alg: 'HS512', typ: 'JWT' })).toString('base64url');
	const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
	const signature = crypto
		.createHmac('sha512', secret)
		.update(`${header}.${payload}`)
		.digest('base64url');
	return `${header}.${payload}.${signature}`;
}

/** Constant-time string comparison; hashing first makes the lengths equal so nothing leaks. */
function safeEqual(a: string, b: string): boolean {
	const hashA = crypto.createHash('sha256').update(a).digest();
	const hashB = crypto.createHash('sha256').update(b).digest();
	return crypto.timingSafeEqual(hashA, hashB);
}

function decodeJsonSegment(segment: string): unknown {
	try {
		return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
	} catch {
		return undefined;
	}
}

/** Returns why the Authorization header is refused, or undefined when its bearer token is acceptable. */
export function bearerTokenError(
	authorization: string | undefined,
	rules: TokenRules,
): string | undefined {
	if (authorization === undefined || authorization.trim() === '') return 'missing bearer token';
	const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
	if (!bearer) return 'missing bearer token: Authorization must be "Bearer <token>"';
	const token = bearer[1];
	if (safeEqual(token, rules.token)) return undefined;

	const parts = token.split('.');
	if (parts.length !== 3) return 'invalid token: neither the access token nor a JWT';
	const header = decodeJsonSegment(parts[0]);
	if (!isJsonObject(header)) return 'invalid token: malformed JWT header';
	if (header.alg !== 'HS512') return 'invalid token: JWT algorithm must be HS512';
	const expected = crypto
		.createHmac('sha512', rules.jwtSecret)
		.update(`${parts[0]}.${parts[1]}`)
		.digest();
	const given = Buffer.from(parts[2], 'base64url');
	if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
		return 'invalid signature';
	const claims = decodeJsonSegment(parts[1]);
	if (!isJsonObject(claims)) return 'invalid token: malformed JWT payload';
	if (claims.iss !== rules.jwtIssuer) return 'invalid token: issuer (iss) is not a known client id';
	if (typeof claims.sub !== 'string' || claims.sub === '')
		return 'invalid token: subject (sub) missing';
	if (typeof claims.iat !== 'number') return 'invalid token: issued-at (iat) missing';
	if (typeof claims.exp !== 'number') return 'invalid token: expiry (exp) missing';
	if (claims.exp <= Date.now() / 1000) return 'token expired';
	return undefined;
}
