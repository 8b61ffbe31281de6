export declare const PRERENDERED_DIR: string
export declare function prerenderedFile(distDir: string, pathname: string): string
