from chronoeval.cli import main

main()
