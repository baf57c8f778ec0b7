import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../helpers/temp-dirs.ts";

/**
 * Compiles a stand-in for bundletool with javac: `build-apks --mode=universal` writes an .apks
 * zip whose universal.apk holds `universalApk` (a real APK, which the server then signs), or
 * the bundle's bytes. With `fail`, it prints an error and exits 1. It also insists that
 * passwords come as files, never on the command line.
 */
export function compileFakeBundletool(options: { fail?: boolean; universalApk?: string } = {}): string {
  const dir = tempDir("bundletool");
  const classes = path.join(dir, "classes");
  mkdirSync(classes);
  const source = `
import java.io.*;
import java.nio.file.*;
import java.util.zip.*;

public class FakeBundletool {
  public static void main(String[] args) throws Exception {
    if (${options.fail ? "true" : "false"}) {
      System.err.println("[BT:1.17.2] Error: The APK Set archive cannot be built.");
      System.exit(1);
    }
    String bundle = null, output = null;
    boolean universal = false;
    for (String arg : args) {
      if (arg.startsWith("--bundle=")) bundle = arg.substring(9);
      if (arg.startsWith("--output=")) output = arg.substring(9);
      if (arg.equals("--mode=universal")) universal = true;
      if ((arg.startsWith("--ks-pass=") || arg.startsWith("--key-pass=")) && !arg.contains("=file:")) System.exit(3);
    }
    if (!"build-apks".equals(args[0]) || bundle == null || output == null || !universal) System.exit(2);
    try (ZipOutputStream zip = new ZipOutputStream(new FileOutputStream(output))) {
      zip.putNextEntry(new ZipEntry("toc.pb"));
      zip.write(new byte[] {8, 1});
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("universal.apk"));
      Files.copy(Paths.get(${options.universalApk ? JSON.stringify(options.universalApk) : "bundle"}), zip);
      zip.closeEntry();
    }
  }
}
`;
  writeFileSync(path.join(dir, "FakeBundletool.java"), source);
  execFileSync("javac", ["-d", classes, path.join(dir, "FakeBundletool.java")]);
  writeFileSync(path.join(dir, "manifest.txt"), "Main-Class: FakeBundletool\n");
  const jar = path.join(dir, "bundletool.jar");
  execFileSync("jar", ["cfm", jar, path.join(dir, "manifest.txt"), "-C", classes, "."]);
  return jar;
}
