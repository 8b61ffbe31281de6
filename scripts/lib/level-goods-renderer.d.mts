/** Bundles 创建云机's LevelGoods for Node into the H5 build; resolves to the bundle's path. */
export declare function buildLevelGoodsRenderer(distDir: string): Promise<string>
