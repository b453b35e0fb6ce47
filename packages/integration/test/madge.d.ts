// madge 8 ships no types (and @types/madge describes version 5): only what the cycle test uses.
declare module 'madge' {
  interface MadgeConfig {
    fileExtensions?: string[];
    tsConfig?: string;
    detectiveOptions?: { ts?: { skipTypeImports?: boolean } };
  }
  interface MadgeResult {
    /** Each cycle as the list of files in it, relative to the common base folder. */
    circular(): string[][];
  }
  export default function madge(
    path: string | string[],
    config?: MadgeConfig,
  ): Promise<MadgeResult>;
}
