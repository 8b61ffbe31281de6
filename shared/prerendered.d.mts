export declare const PRERENDERED_DIR: string
export declare function prerenderedFile(distDir: string, pathname: string): string
export declare const LEVEL_GOODS_SLOT: string
export declare function prerenderedTemplate(distDir: string, pathname: string): string
export declare function levelGoodsRenderer(distDir: string): string
