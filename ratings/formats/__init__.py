"""Pure readers and writers of the file formats dwzsite exchanges (spec/formats.md); no Django imports."""
