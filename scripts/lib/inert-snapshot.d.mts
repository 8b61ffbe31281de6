export declare const INERT_PREFIX: string
export declare function liveCustomElements(html: string): string[]
export declare function inertSelectors(css: string, names: string[]): string
