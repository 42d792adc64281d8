/** The shortest token the inspector takes (`inspector({ token })`, a starter's INSPECTOR_TOKEN): 16 characters. */
export const INSPECTOR_TOKEN_MIN_CHARS = 16;
