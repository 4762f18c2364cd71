import ArgumentParser

HaulFaultServerCommand.main()
