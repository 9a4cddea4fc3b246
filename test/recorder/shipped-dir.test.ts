// Where the recorder's Python package is found: the repository's python/ from the sources or
// dist/, and the packaged desktop app's resources/python (electron-builder.yml) when the code
// runs from inside app.asar, which python3 cannot read.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pythonDir, shippedDir } from '../../src/recorder/python.js';

describe('shippedDir', () => {
  it('is the folder beside the code when the code is not packed in an asar', () => {
    const url = pathToFileURL('/home/u/stepscope/dist/recorder/python.js').href;
    expect(shippedDir('../../python', url, '/opt/Stepscope/resources')).toBe('/home/u/stepscope/python');
  });

  it("is <resourcesPath>/<name> when the code runs from a packaged app's app.asar", () => {
    const url = pathToFileURL('/opt/Stepscope/resources/app.asar/out/main/chunks/x.js').href;
    const resources = '/opt/Stepscope/resources';
    expect(shippedDir('../../python', url, resources)).toBe('/opt/Stepscope/resources/python');
    expect(shippedDir('../../../resources/demo', url, resources)).toBe('/opt/Stepscope/resources/demo');
  });

  it('does not take a folder merely named like an asar for the archive', () => {
    const url = pathToFileURL('/home/u/app.asarx/dist/recorder/python.js').href;
    expect(shippedDir('../../python', url, '/r')).toBe('/home/u/app.asarx/python');
  });

  it('keeps the path beside the code when no resources path is known (plain Node)', () => {
    const url = pathToFileURL('/opt/Stepscope/resources/app.asar/out/main/x.js').href;
    expect(shippedDir('../../python', url, undefined)).toBe('/opt/Stepscope/resources/app.asar/python');
  });

  it('finds the recorder package when running from the repository', () => {
    expect(existsSync(join(pythonDir, 'stepscope_recorder', '__main__.py'))).toBe(true);
  });
});
